import { ToolbeltError } from '../../shared/errors.js';
import { BUNDLE_FILE_KEY_ORDER, BundleInputSchema, type BundleInput } from '../../shared/schemas/bundle.js';
import { listHooks } from '../../shared/hooks/hook-list.js';
import { stringifyStable } from '../common/json-files.js';
import type { ArchivePreview } from '../../shared/schemas/imports.js';
import type { ToolInput } from '../../shared/schemas/tool.js';
import type { Handlers } from '../api/dispatcher.js';
import type { Clock } from '../common/clock.js';
import { compileOnFirstUse, describeIssues, issuesFrom } from '../common/validation.js';
import type { SecretStore } from '../secrets/secret-store.js';
import type { ToolStore } from '../store/tool-store.js';
import { uniqueDisplayName, uniqueName } from '../../shared/tools/import-names.js';
import { packBundle, secretNamesOf, unpackBundle } from './bundle-archive.js';
import { bindSecrets, confirmedHosts, renameSecrets } from './secret-binding.js';
import { rebaseOwnBundle } from './bundle-references.js';

const IDENTITY = ['schemaVersion', 'toolID', 'bundleID', 'slug', 'version', 'isBuiltIn', 'createdAt', 'modifiedAt'];

/** Bundles as .zip files: export one, and read (then write, as a new bundle) one someone shared. */
export function archiveHandlers(store: ToolStore, secrets: SecretStore, clock: Clock): Pick<Handlers, 'bundles.export' | 'bundles.importArchive'> {
  const validateBundle = compileOnFirstUse(BundleInputSchema);
  const bad = (message: string, issues?: unknown) => new ToolbeltError('import_invalid', `This bundle archive cannot be imported: ${message}`, issues ? { issues } : undefined);

  return {
    'bundles.export': async ({ bundleID }) => {
      const bundle = await store.requireBundle(bundleID);
      if (!store.isWritable(bundle)) {
        throw new ToolbeltError('source_readonly', `“${bundle.bundle.displayName}” comes with Toolbelt or from an MCP server; only your own bundles are exported.`);
      }
      const tools = store.validToolsOf(bundleID);
      // What the person switched on here is theirs: whoever imports the ZIP reads the hooks and decides again.
      const { hooksSwitchedOn, ...shared } = bundle.bundle;
      const text = hooksSwitchedOn ? stringifyStable(shared, BUNDLE_FILE_KEY_ORDER) : bundle.text;
      const zip = packBundle(shared, text, tools.map((record) => record.tool), clock.now());
      return {
        fileName: `${bundle.bundle.slug}.zip`,
        base64: Buffer.from(zip).toString('base64'),
        secrets: secretNamesOf(
          bundle.bundle.http,
          tools.map((record) => record.tool),
        ),
      };
    },
    'bundles.importArchive': async ({ base64, bundleID, apply, useSecrets, allowHosts }) => {
      const { bundle: rawBundle, tools: rawTools } = unpackBundle(Buffer.from(base64, 'base64'));
      const source = (rawBundle ?? {}) as Record<string, unknown>;
      const input = Object.fromEntries(Object.entries({ slug: source.slug, displayName: source.displayName, description: source.description, isEnabled: source.isEnabled, http: source.http, hooks: source.hooks }).filter(([, value]) => value !== undefined));
      if (!validateBundle(input)) {
        const issues = issuesFrom(validateBundle.errors);
        throw bad(`bundle.json is not a valid bundle: ${describeIssues(issues)}`, issues);
      }
      const bundle = input as BundleInput;
      const tools: { slug: string; version: string; input: ToolInput }[] = [];
      for (const { file, value } of rawTools) {
        const tool = (value ?? {}) as Record<string, unknown>;
        if (typeof tool.slug !== 'string' || typeof tool.version !== 'string') throw bad(`${file} has no slug or version.`);
        const body = Object.fromEntries(Object.entries(tool).filter(([key]) => !IDENTITY.includes(key)));
        // Every tool is checked as tools.put would before anything is shown or written.
        const issues = await store.drafts.check(body, { slug: tool.slug, version: tool.version });
        if (issues.length > 0) throw bad(`${file} is not a valid tool: ${describeIssues(issues)}`, issues);
        tools.push({ slug: tool.slug, version: tool.version, input: body as ToolInput });
      }
      // The names the files use, read from them (the manifest is a summary anyone could edit). One the person has
      // already set is used only when they say so; otherwise the bundle gets its own.
      const { secrets: bound, renames } = bindSecrets(
        secretNamesOf(
          bundle.http,
          tools.map((tool) => tool.input),
        ),
        new Set((await secrets.list()).map((secret) => secret.name)),
        { useExisting: new Set(useSecrets) },
      );
      const here = [...store.allBundles()].flatMap((record) => (record.kind === 'valid' && !record.bundle.softDeletedAt ? [record.bundle] : []));
      const preview: ArchivePreview = {
        bundle: { slug: bundle.slug, displayName: bundle.displayName, description: bundle.description ?? '' },
        tools: tools.map((tool) => ({ slug: tool.slug, version: tool.version, displayName: tool.input.displayName, type: tool.input.type })),
        secrets: bound,
        hosts: bundle.http?.allowedHosts ?? [],
        ...(bundle.hooks ? { hooks: listHooks(bundle.hooks) } : {}),
        sameName: here.filter((entry) => entry.displayName === bundle.displayName).map((entry) => entry.bundleID),
        importedAs: {
          slug: uniqueName(bundle.slug, new Set(here.map((entry) => entry.slug))),
          displayName: uniqueDisplayName(bundle.displayName, new Set(here.map((entry) => entry.displayName))),
        },
      };
      if (!apply) return preview;
      const renamed = renameSecrets(
        bundle.http,
        tools.map((tool) => tool.input),
        renames,
      );
      const http = confirmedHosts(renamed.http, new Set(allowHosts));
      // Always a new bundle (new IDs for it and its tools): an archive never writes over what is here.
      // Recipes and agents that named their own bundle's tools name the new bundle's.
      const rebased = rebaseOwnBundle(renamed.tools, typeof source.bundleID === 'string' ? source.bundleID : undefined, bundleID);
      await store.putTools(
        bundleID,
        { ...bundle, ...preview.importedAs, ...(http ? { http } : {}) },
        tools.map((tool, index) => ({ ...tool, input: rebased[index]! })),
      );
      return { ...preview, bundleID };
    },
  };
}
