import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { ToolbeltError } from '../../shared/errors.js';
import { templatesOf } from '../../shared/tools/http-templates.js';
import type { BundleFile } from '../../shared/schemas/bundle.js';
import type { BundleHttp, HttpImpl } from '../../shared/schemas/http-impl.js';
import { TOOL_FILE_KEY_ORDER, type ToolFile } from '../../shared/schemas/tool.js';
import { stringifyStable } from '../common/json-files.js';
import { parseTemplate } from '../../shared/tools/templates.js';
import { isUuidV7 } from '../../shared/schemas/ids.js';

export const MANIFEST_FORMAT = 'toolbelt-bundle';
const MAX_ENTRIES = 5_000;
const MAX_FILE_BYTES = 5 * 1024 * 1024;
const MAX_TOTAL_BYTES = 50 * 1024 * 1024;

export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  version: 1;
  exportedAt: string;
  bundle: { slug: string; displayName: string };
  tools: { slug: string; version: string; file: string }[];
  /** Names of the secrets its tools use; never their values. */
  secrets: string[];
}

/** Secret names a bundle's settings and tools refer to (`${secret.X}`, or a bare name that is no argument). */
export function secretNamesOf(http: BundleHttp | undefined, tools: { type: string; argSchema: Record<string, unknown>; impl: unknown }[]): string[] {
  const names = new Set<string>();
  const collect = (template: string, argumentNames: ReadonlySet<string>) => {
    const parsed = parseTemplate(template);
    if (!parsed.ok) return;
    for (const part of parsed.parts) {
      if (part.kind === 'placeholder' && (part.source === 'secret' || (part.source === 'auto' && !argumentNames.has(part.name)))) names.add(part.name);
    }
  };
  if (http?.baseUrl) collect(http.baseUrl, new Set());
  for (const value of Object.values(http?.headers ?? {})) collect(value, new Set());
  for (const value of Object.values(http?.auth ?? {})) if (typeof value === 'string') collect(value, new Set());
  for (const tool of tools) {
    // A script tool names the secrets it reads.
    if (tool.type === 'script') for (const name of (tool.impl as { secrets?: unknown }).secrets as string[] | undefined ?? []) names.add(name);
    if (tool.type !== 'http') continue;
    const argumentNames = new Set(Object.keys((tool.argSchema.properties as object | undefined) ?? {}));
    for (const { template } of templatesOf(tool.impl as HttpImpl)) collect(template, argumentNames);
  }
  return [...names].sort();
}

/** A bundle as a .zip: bundle.json, tools/<toolID>.json as they are on disk, and a manifest naming the secrets it needs. */
export function packBundle(bundle: BundleFile, bundleText: string, tools: ToolFile[], now: Date): Uint8Array {
  const manifest: Manifest = {
    format: MANIFEST_FORMAT,
    version: 1,
    exportedAt: now.toISOString(),
    bundle: { slug: bundle.slug, displayName: bundle.displayName },
    tools: tools.map((tool) => ({ slug: tool.slug, version: tool.version, file: `tools/${tool.toolID}.json` })),
    secrets: secretNamesOf(
      bundle.http,
      tools,
    ),
  };
  const files: Record<string, Uint8Array> = {
    'manifest.json': strToU8(`${JSON.stringify(manifest, null, 2)}\n`),
    'bundle.json': strToU8(bundleText),
  };
  // Each tool as the store writes it (the record keeps no text): a hand-edited file leaves in the store's layout, its content the same.
  for (const tool of tools) files[`tools/${tool.toolID}.json`] = strToU8(stringifyStable({ ...tool }, TOOL_FILE_KEY_ORDER));
  return zipSync(files, { level: 6, mtime: now });
}

/** Thrown from fflate's filter to stop it reading further entries once one was refused. */
class ArchiveRefused extends Error {}

const refuse = (message: string) => new ToolbeltError('import_invalid', `This bundle archive cannot be imported: ${message}`);

/** Which names an archive may hold: nothing else is read, so nothing else can land anywhere. */
function allowedName(name: string): boolean {
  if (name === 'manifest.json' || name === 'bundle.json' || name === 'tools/') return true;
  const tool = /^tools\/([^/]+)\.json$/.exec(name);
  return !!tool && isUuidV7(tool[1]!);
}

/**
 * The files of a bundle archive, refused whole on any trick: a path that
 * climbs out or is absolute (zip-slip), a name that is not one of a bundle's
 * files, too many entries, a file or a total too large once unpacked.
 */
export function unpackBundle(zip: Uint8Array): { manifest: unknown; bundle: unknown; tools: { file: string; value: unknown }[] } {
  let entries = 0;
  let total = 0;
  let problem: string | null = null;
  let files: Record<string, Uint8Array> = {};
  try {
    files = unzipSync(zip, {
      filter: (file) => {
        // fflate goes on reading as many entries as the end record claims (a ZIP64 one can say four billion) whatever
        // the filter answers: the first refusal ends the reading.
        if (problem) throw new ArchiveRefused();
        entries++;
        const name = file.name;
        if (entries > MAX_ENTRIES) problem = `it has more than ${MAX_ENTRIES} entries.`;
        else if (name.includes('\\') || name.startsWith('/') || /^[A-Za-z]:/.test(name) || name.split('/').includes('..')) problem = `the entry "${name}" points outside the bundle.`;
        else if (!allowedName(name)) problem = `"${name}" is not part of a bundle (it holds manifest.json, bundle.json and tools/<toolID>.json only).`;
        else if (file.originalSize > MAX_FILE_BYTES) problem = `"${name}" is larger than 5 MB unpacked.`;
        else if ((total += file.originalSize) > MAX_TOTAL_BYTES) problem = 'it is larger than 50 MB unpacked.';
        return !problem && !name.endsWith('/');
      },
    });
  } catch (error) {
    if (!(error instanceof ArchiveRefused)) throw refuse(`it is not a readable .zip (${error instanceof Error ? error.message : String(error)}).`);
  }
  if (problem) throw refuse(problem);
  const json = (name: string): unknown => {
    const bytes = files[name];
    if (!bytes) throw refuse(`it has no ${name}.`);
    if (bytes.length > MAX_FILE_BYTES) throw refuse(`"${name}" is larger than 5 MB unpacked.`);
    try {
      return JSON.parse(strFromU8(bytes));
    } catch {
      throw refuse(`${name} is not JSON.`);
    }
  };
  const manifest = json('manifest.json');
  if ((manifest as { format?: unknown } | null)?.format !== MANIFEST_FORMAT) throw refuse('manifest.json is not a Toolbelt bundle manifest.');
  return {
    manifest,
    bundle: json('bundle.json'),
    tools: Object.keys(files)
      .filter((name) => name.startsWith('tools/'))
      .sort()
      .map((file) => ({ file, value: json(file) })),
  };
}
