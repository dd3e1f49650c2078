import type { InstallPlan } from '../../shared/schemas/mcp-install.js';
import type { McpServerConfig, McpServerView } from '../../shared/schemas/mcp.js';

/**
 * What Toolbelt shows before adding a server from a bundle, a registry or a
 * link: the exact command and arguments or address, the names of the
 * environment variables and headers (their values stay where they are), the
 * hosts it would reach and the secrets it asks for.
 */
export function planOf(serverName: string, config: McpServerConfig, secrets: string[], replaces: boolean): InstallPlan {
  const settings = 'command' in config ? Object.keys(config.env ?? {}) : Object.keys(config.headers ?? {});
  const hosts = 'url' in config ? [hostOf(config.url)] : [];
  return { serverName, config, settingNames: settings.sort(), hosts, secrets: [...secrets].sort(), ...(replaces ? { replaces: true } : {}) };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** A name for a new server that no configured server has: the wanted one, or it with " (2)", " (3)", … */
export function serverNameFor(wanted: string, existing: readonly Pick<McpServerView, 'name'>[]): string {
  // eslint-disable-next-line no-control-regex
  const base = wanted.replace(/[\u0000-\u001f\u007f]/g, ' ').trim().slice(0, 58).trim() || 'MCP server';
  const taken = new Set(existing.map((server) => server.name));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base} (${n})`)) return `${base} (${n})`;
}

const PLACEHOLDER = /\$\{([^}]{1,200})\}/g;

/**
 * Placeholders in a server about to be added that Toolbelt would fill from
 * the person's secrets or environment (`${GITHUB_TOKEN}`, `${env:HOME}`, a
 * provider's key): a bundle, registry entry or link was not given those, so
 * naming one stops it. Only the secrets made for its own settings (`own`)
 * may be named; `allowed` says which other placeholders a preview may leave.
 */
export function foreignPlaceholders(config: McpServerConfig, own: ReadonlySet<string>, allowed: (inner: string) => boolean = () => false): string[] {
  const texts = 'command' in config ? [config.command, ...(config.args ?? []), ...Object.values(config.env ?? {}), config.cwd ?? ''] : [config.url, ...Object.values(config.headers ?? {})];
  const found = new Set<string>();
  for (const text of texts) {
    for (const match of text.matchAll(PLACEHOLDER)) {
      const inner = match[1]!.trim();
      if ((inner.startsWith('secret.') && own.has(inner.slice('secret.'.length))) || allowed(inner)) continue;
      found.add(match[0]);
    }
  }
  return [...found];
}

/** The secret a sensitive value of an installed server is kept in: `<PREFIX>_<SOURCE>_<KEY>`, in capitals. */
export function installSecretName(prefix: string, source: string, key: string): string {
  const part = (text: string) => text.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  return `${prefix}_${part(source).slice(0, 40) || 'SERVER'}_${part(key).slice(0, 60) || 'VALUE'}`;
}
