import { mapAuthTemplates, mapTemplates } from '../../shared/tools/http-templates.js';
import type { BundleHttp, HttpImpl } from '../../shared/schemas/http-impl.js';
import { parseTemplate, placeholderTarget } from '../../shared/tools/templates.js';
import { isToolbeltSecretName } from '../../shared/tools/secret-names.js';

/** A secret an import's tools name, as its preview shows it. */
export interface SecretWanted {
  name: string;
  isSet: boolean;
  /**
   * For a name the person has already set (for something else, perhaps): the
   * name the bundle gets instead unless the person chooses to let it use theirs.
   */
  ownName?: string;
}

/**
 * What an import may bind to. A name the person already has is used only when
 * they say so (`useExisting`); otherwise the bundle gets a name of its own, the
 * first of NAME_2, NAME_3… that is neither set nor wanted by the import. So an
 * imported description or a shared ZIP never reaches a secret set for another
 * API without the person choosing it in the preview.
 */
export function bindSecrets(
  wanted: readonly string[],
  existing: ReadonlySet<string>,
  options: { useExisting?: ReadonlySet<string>; ownedByTarget?: ReadonlySet<string> } = {},
): { secrets: SecretWanted[]; renames: Map<string, string> } {
  const owned = options.ownedByTarget ?? new Set<string>();
  const taken = new Set([...existing, ...wanted]);
  const renames = new Map<string, string>();
  const secrets = wanted.map((name): SecretWanted => {
    // A re-import: the bundle already names it (it was confirmed then), or its own name for it.
    if (!existing.has(name) || owned.has(name)) return { name, isSet: existing.has(name) };
    const stem = name.slice(0, 120);
    const ownNames = (function* () {
      for (let counter = 2; ; counter++) yield `${stem}_${counter}`;
    })();
    let own = '';
    for (const candidate of ownNames) {
      if (owned.has(candidate) || (!taken.has(candidate) && !isToolbeltSecretName(candidate))) {
        own = candidate;
        break;
      }
    }
    taken.add(own);
    if (!options.useExisting?.has(name)) renames.set(name, own);
    return { name, isSet: true, ownName: own };
  });
  return { secrets, renames };
}

/** A template with the secrets it names renamed (`${X}` that means a secret becomes `${secret.NEW}`); other text as it was. */
function renameIn(template: string, argumentNames: ReadonlySet<string>, renames: ReadonlyMap<string, string>): string {
  const parsed = parseTemplate(template);
  if (!parsed.ok) return template;
  let changed = false;
  const text = parsed.parts
    .map((part) => {
      if (part.kind === 'text') return part.text;
      const renamed = placeholderTarget(part, argumentNames) === 'secret' ? renames.get(part.name) : undefined;
      if (renamed === undefined) return part.raw;
      changed = true;
      return `\${secret.${renamed}}`;
    })
    .join('');
  return changed ? text : template;
}

/** A bundle's connection settings and its tools with the secrets they name renamed as the binding says. */
export function renameSecrets<Tool extends { type: string; argSchema: Record<string, unknown>; impl: unknown }>(
  http: BundleHttp | undefined,
  tools: Tool[],
  renames: ReadonlyMap<string, string>,
): { http: BundleHttp | undefined; tools: Tool[] } {
  if (renames.size === 0) return { http, tools };
  const none = new Set<string>();
  const bundleRewrite = (template: string) => renameIn(template, none, renames);
  const nextHttp = http && {
    ...http,
    ...(http.baseUrl !== undefined ? { baseUrl: bundleRewrite(http.baseUrl) } : {}),
    ...(http.headers ? { headers: Object.fromEntries(Object.entries(http.headers).map(([key, value]) => [key, bundleRewrite(value)])) } : {}),
    ...(http.auth ? { auth: mapAuthTemplates(http.auth, bundleRewrite) } : {}),
  };
  const nextTools = tools.map((tool) => {
    if (tool.type !== 'http') return tool;
    const argumentNames = new Set(Object.keys((tool.argSchema.properties as object | undefined) ?? {}));
    return { ...tool, impl: mapTemplates(tool.impl as HttpImpl, (template) => renameIn(template, argumentNames, renames)) };
  });
  return { http: nextHttp, tools: nextTools };
}

/** Hosts an import would let its tools reach: allowed only when the person confirms each one. */
export function confirmedHosts(http: BundleHttp | undefined, allow: ReadonlySet<string>): BundleHttp | undefined {
  if (!http?.allowedHosts) return http;
  const { allowedHosts, ...rest } = http;
  const kept = allowedHosts.filter((host) => allow.has(host));
  return kept.length ? { ...rest, allowedHosts: kept } : rest;
}
