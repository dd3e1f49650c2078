import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { strFromU8, unzipSync, type UnzipFileInfo } from 'fflate';
import { ToolbeltError } from '../../../shared/errors.js';

/**
 * Limits an MCP bundle is held to before anything of it is unpacked (a bundle with its node_modules is tens of MB
 * unpacked; the whole of it is in memory while it is written, so the total stays well below what the core can hold).
 */
export const MCPB_LIMITS = {
  entries: 20_000,
  fileBytes: 256 * 1024 * 1024,
  totalBytes: 512 * 1024 * 1024,
  nameLength: 1_024,
  manifestBytes: 1024 * 1024,
} as const;

/** Thrown from fflate's filter to stop it at the first refused entry (a ZIP64 end record can claim billions). */
class ArchiveRefused extends Error {}

export const mcpbRefused = (message: string) => new ToolbeltError('mcpb_invalid', `This MCP bundle cannot be installed: ${message}`);

/** Why an entry's name may not be unpacked, or null when it may: nothing can land outside the bundle's folder. */
function unsafeName(name: string): string | null {
  if (name.length > MCPB_LIMITS.nameLength) return `an entry's name is longer than ${MCPB_LIMITS.nameLength} characters.`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return `the entry ${JSON.stringify(name)} has control characters in its name.`;
  const parts = name.replace(/\/$/, '').split('/');
  if (name.includes('\\') || name.startsWith('/') || /^[A-Za-z]:/.test(name) || parts.some((part) => part === '..' || part === '.' || part === '')) {
    return `the entry ${JSON.stringify(name)} points outside the bundle.`;
  }
  return null;
}

export interface McpbContents {
  /** Every file's name (folders left out). */
  names: Set<string>;
  unpackedBytes: number;
  /** Those of the wanted names the bundle has. */
  read: Map<string, Uint8Array>;
}

/**
 * Reads an MCP bundle's directory and only the files asked for (`wanted`;
 * all of them when `wanted` is 'all'). The whole archive is refused on the
 * first trick: a name that climbs out or is absolute, the same name twice,
 * too many entries, a file or a total too large once unpacked.
 */
export function readMcpb(zip: Uint8Array, wanted: ReadonlySet<string> | 'all'): McpbContents {
  const names = new Set<string>();
  let total = 0;
  let problem: string | null = null;
  let files: Record<string, Uint8Array> = {};
  const check = (file: UnzipFileInfo): string | null => {
    if (names.size >= MCPB_LIMITS.entries) return `it has more than ${MCPB_LIMITS.entries} entries.`;
    const unsafe = unsafeName(file.name);
    if (unsafe) return unsafe;
    if (file.name.endsWith('/')) return null;
    if (names.has(file.name)) return `it holds ${JSON.stringify(file.name)} twice.`;
    if (file.originalSize > MCPB_LIMITS.fileBytes) return `${JSON.stringify(file.name)} is larger than 256 MB unpacked.`;
    if ((total += file.originalSize) > MCPB_LIMITS.totalBytes) return 'it is larger than 512 MB unpacked.';
    names.add(file.name);
    return null;
  };
  try {
    files = unzipSync(zip, {
      filter: (file) => {
        problem = check(file);
        if (problem) throw new ArchiveRefused();
        return !file.name.endsWith('/') && (wanted === 'all' || wanted.has(file.name));
      },
    });
  } catch (error) {
    if (!(error instanceof ArchiveRefused)) throw mcpbRefused(`it is not a readable .zip (${error instanceof Error ? error.message : String(error)}).`);
  }
  if (problem) throw mcpbRefused(problem);
  return { names, unpackedBytes: total, read: new Map(Object.entries(files)) };
}

/** The bundle's manifest.json, parsed, or a refusal saying why not. */
export function manifestJsonOf(contents: McpbContents): unknown {
  const bytes = contents.read.get('manifest.json');
  if (!bytes) throw mcpbRefused('it has no manifest.json at its top.');
  if (bytes.length > MCPB_LIMITS.manifestBytes) throw mcpbRefused('its manifest.json is larger than 1 MB.');
  try {
    return JSON.parse(strFromU8(bytes)) as unknown;
  } catch {
    throw mcpbRefused('its manifest.json is not JSON.');
  }
}

/**
 * Writes every file of a bundle under `folder` (which is made). Names were
 * checked by readMcpb; each path is checked again to stay inside `folder`.
 * Entries are written as plain files: a symbolic link in the archive lands
 * as a small file holding its target, never as a link.
 */
export async function writeMcpbFiles(contents: McpbContents, folder: string, executable: string | null): Promise<void> {
  const root = path.resolve(folder);
  await mkdir(root, { recursive: true, mode: 0o700 });
  for (const [name, bytes] of contents.read) {
    const target = path.resolve(root, ...name.split('/'));
    if (!target.startsWith(root + path.sep)) throw mcpbRefused(`the entry ${JSON.stringify(name)} points outside the bundle.`);
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    // fflate does not hand over an entry's Unix mode: a binary server's entry point is the one file made executable.
    await writeFile(target, bytes, { mode: name === executable ? 0o755 : 0o644 });
  }
}
