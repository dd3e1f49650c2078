import { createHash, randomBytes } from 'node:crypto';
import { ToolbeltError } from '../../shared/errors.js';
import type { ImportPreview } from '../../shared/schemas/imports.js';
import type { ToolFile, ToolInput } from '../../shared/schemas/tool.js';
import type { Clock } from '../common/clock.js';
import type { Handlers } from '../api/dispatcher.js';
import type { SecretStore } from '../secrets/secret-store.js';
import type { SettingsStore } from '../settings/settings-store.js';
import type { ToolStore } from '../store/tool-store.js';
import { secretNamesOf } from './bundle-archive.js';
import { planAgainst } from './import-plan.js';
import { bindSecrets, confirmedHosts, renameSecrets } from './secret-binding.js';
import type { loadApiDescription } from './openapi-source.js';
import type { ConvertedApi } from './openapi-tools.js';
import { convertDescription } from './convert-description.js';
import type { DescriptionConverter } from './convert-elsewhere.js';

type PreviewParams = { source: Parameters<typeof loadApiDescription>[0]; bundleID?: string; baseUrl?: string; useSecrets?: string[] };
/** Import reads the description from its preview (`previewId`) or from its source again. */
type ConvertParams = Omit<PreviewParams, 'source'> & { source?: PreviewParams['source']; previewId?: string };

/** How many converted descriptions are kept for Import, and for how long after their preview. */
const PREVIEWS_KEPT = 2;
const PREVIEW_KEPT_MS = 30 * 60_000;

/** OpenAPI, Swagger and Postman imports: a preview of the tools a description gives, then writing the chosen ones in one step. */
export function importHandlers(
  store: ToolStore,
  settings: SettingsStore,
  secrets: SecretStore,
  clock: Clock,
  /** Reads and converts descriptions (in a process of its own, in the core; in this one where none is given). */
  descriptions: Pick<DescriptionConverter, 'convert' | 'prepare'> = { convert: convertDescription, prepare: () => Promise.resolve() },
): Pick<Handlers, 'imports.prepare' | 'imports.openapiPreview' | 'imports.openapiApply'> {
  /** The tools a bundle has now; none for a bundle not made yet. */
  const toolsOf = (bundleID: string | undefined): ToolFile[] => {
    if (!bundleID || store.bundle(bundleID)?.kind !== 'valid') return [];
    return store.validToolsOf(bundleID).map((record) => record.tool);
  };

  /**
   * The descriptions last previewed, converted. Import writes what the person chose from without reading, parsing
   * and converting the description again (a third of a large import's time), and from the same document even if
   * the one at its address changed meanwhile. A preview always reads it anew; an import takes its preview away.
   * Each has an id the preview hands out, so Import need not send the text again: GitHub's 13 MB as a request body
   * is ~75 MB of the host's memory for a moment (body, text, parsed copy), more than the whole import otherwise.
   */
  const previewed = new Map<string, { converted: ConvertedApi; at: number; id: string; allowedHosts: string; baseUrl: string | undefined }>();
  const fresh = (kept: { at: number }) => clock.now().getTime() - kept.at < PREVIEW_KEPT_MS;

  /** Taken, not copied: an import is what a preview is for, and GitHub's converted description is ~40 MB the host would otherwise hold twice while writing, and once more for half an hour after. Importing again reads it anew. */
  function takePreview(params: ConvertParams): ConvertedApi {
    const allowedHosts = JSON.stringify(settings.get().allowedHosts);
    for (const [key, kept] of previewed) {
      if (kept.id !== params.previewId) continue;
      previewed.delete(key);
      // What the preview was read under must still hold: the same allowed hosts, the same base URL.
      if (fresh(kept) && kept.allowedHosts === allowedHosts && kept.baseUrl === params.baseUrl) return kept.converted;
      break;
    }
    throw new ToolbeltError(
      'import_preview_gone',
      'The preview this import was chosen from is no longer kept (older than 30 minutes, imported already, or the allowed hosts or base URL changed since): send the description again, or read it again.',
    );
  }

  async function convert(params: ConvertParams, reuse: boolean): Promise<ConvertedApi & { previewId: string }> {
    if (!params.source) {
      if (!params.previewId) throw new ToolbeltError('invalid_params', 'Give the description (source) or the previewId of its preview.');
      return { ...takePreview(params), previewId: params.previewId };
    }
    const allowedHosts = settings.get().allowedHosts;
    // The text itself is hashed as it is: printed into the key's JSON, GitHub's 13 MB came out as ~50 MB of escaped garbage.
    const { text, ...where } = 'text' in params.source ? params.source : { ...params.source, text: '' };
    const key = createHash('sha256').update(JSON.stringify([where, params.baseUrl ?? null, allowedHosts])).update('\0').update(text).digest('hex');
    const kept = previewed.get(key);
    if (reuse && kept && fresh(kept)) {
      previewed.delete(key);
      return { ...kept.converted, previewId: kept.id };
    }
    const converted = await descriptions.convert({ source: params.source, allowedHosts, ...(params.baseUrl ? { baseUrl: params.baseUrl } : {}) });
    previewed.delete(key);
    // Kept as it is (nothing changes a preview's objects until Import takes them, and writing may fill in defaults).
    const id = randomBytes(18).toString('base64url');
    previewed.set(key, { converted, at: clock.now().getTime(), id, allowedHosts: JSON.stringify(allowedHosts), baseUrl: params.baseUrl });
    for (const oldest of previewed.keys()) if (previewed.size > PREVIEWS_KEPT) previewed.delete(oldest);
    return { ...converted, previewId: id };
  }

  async function preview(params: ConvertParams, reuse = false): Promise<ImportPreview> {
    const { previewId, ...converted } = await convert(params, reuse);
    const targetRecord = params.bundleID ? store.bundle(params.bundleID) : undefined;
    const target = targetRecord?.kind === 'valid' ? targetRecord : undefined;
    const current = toolsOf(target?.bundleID);
    // Secrets the person already has are bound only when they say so; a re-import keeps the names its bundle has.
    const { secrets: bound, renames } = bindSecrets(
      converted.secrets.map((secret) => secret.name),
      new Set((await secrets.list()).map((secret) => secret.name)),
      { useExisting: new Set(params.useSecrets), ownedByTarget: new Set(target ? secretNamesOf(target.bundle.http, current) : []) },
    );
    const http = renameSecrets(converted.bundle.http, [], renames).http;
    const renamedOperations = converted.operations.map((operation) => (operation.tool ? { ...operation, tool: renameSecrets(undefined, [operation.tool], renames).tools[0]! } : operation));
    const { operations, gone } = planAgainst(renamedOperations, current);
    return {
      ...converted,
      bundle: { ...converted.bundle, ...(http ? { http } : {}) },
      secrets: converted.secrets.map((secret, index) => ({ ...secret, ...bound[index]! })),
      // A re-import leaves its bundle's settings as they are: it brings no host.
      hosts: target ? [] : (http?.allowedHosts ?? []),
      operations,
      gone,
      ...(target ? { bundleID: target.bundleID } : {}),
      previewId,
    };
  }

  return {
    'imports.prepare': async () => {
      await descriptions.prepare();
      return {};
    },
    'imports.openapiPreview': (params) => preview(params),
    'imports.openapiApply': async (params, context) => {
      const plan = await preview(params, true);
      const byKey = new Map(plan.operations.map((operation) => [operation.key, operation]));
      const unknown = params.operations.filter((key) => !byKey.has(key));
      if (unknown.length > 0) {
        throw new ToolbeltError('invalid_params', `The description has no operation ${unknown.slice(0, 3).map((key) => `"${key}"`).join(', ')}${unknown.length > 3 ? ` and ${unknown.length - 3} more` : ''}.`);
      }
      const chosen = params.operations.map((key) => byKey.get(key)!);
      const cannot = chosen.filter((operation) => !operation.tool);
      if (cannot.length > 0) throw new ToolbeltError('invalid_params', `${cannot[0]!.key} cannot be imported: ${cannot[0]!.skipped ?? 'it is not a tool'}.`);
      const toWrite = chosen.filter((operation) => operation.status !== 'same');
      // Each tool its own copy, as its file will hold it: a preview's tools share the schemas of the components they use.
      const tools = toWrite.map((operation) => ({ slug: operation.slug, version: operation.status === 'changed' ? operation.nextVersion! : 'v1', input: JSON.parse(JSON.stringify(operation.tool!)) as ToolInput }));
      const isNew = !plan.bundleID;
      if (!isNew && tools.length === 0) return { bundleID: params.bundleID, created: false, written: [], unchanged: chosen.length };
      const bundle = { ...plan.bundle, http: confirmedHosts(plan.bundle.http, new Set(params.allowHosts)), isEnabled: true };
      const { created } = await store.putTools(params.bundleID, isNew ? bundle : null, tools);
      if (created) context.markCreated?.();
      return {
        bundleID: params.bundleID,
        created,
        written: toWrite.map((operation, index) => ({ slug: tools[index]!.slug, version: tools[index]!.version, status: operation.status as 'new' | 'changed' })),
        unchanged: chosen.length - toWrite.length,
      };
    },
  };
}
