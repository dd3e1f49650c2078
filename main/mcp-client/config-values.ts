import { ToolbeltError } from '../../shared/errors.js';
import { isToolbeltEnvironmentName } from '../../shared/tools/secret-names.js';

/** Where a placeholder's value comes from. */
export interface ValueSources {
  secret(name: string): Promise<string | null>;
  environment(name: string): string | undefined;
}

const PLACEHOLDER = /\$\{([^}]{1,200})\}/g;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A value of an MCP server's config as the server gets it, in the shapes
 * people paste: `${secret.NAME}` (a secret of the person's), `${env:NAME}`
 * (VS Code: the environment Toolbelt runs in), `${NAME}` and
 * `${NAME:-default}` (Claude Code: a secret of that name if there is one,
 * else the environment, else the default). Anything else in braces is left
 * as it is. Toolbelt's own secrets, and the environment variables it reads
 * its providers' keys from, are never handed out.
 */
export async function expandConfigValue(server: string, template: string, sources: ValueSources): Promise<string> {
  let out = '';
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    out += template.slice(last, match.index);
    last = match.index + match[0].length;
    out += (await valueOf(server, match[1]!.trim(), sources)) ?? match[0];
  }
  return out + template.slice(last);
}

function reserved(server: string, name: string): ToolbeltError {
  return new ToolbeltError('secret_reserved', `The MCP server ${server} names ${name}, an environment variable Toolbelt keeps for its own secrets (a provider's key): no server can be given it. Give the server a secret of yours in Settings → Secrets, and name that.`);
}

async function valueOf(server: string, inner: string, sources: ValueSources): Promise<string | null> {
  if (inner.startsWith('secret.')) {
    const name = inner.slice('secret.'.length);
    if (!NAME.test(name)) return null;
    // The secret store refuses Toolbelt's own names itself (secret_reserved), in its own words.
    const value = await sources.secret(name);
    if (value === null) throw new ToolbeltError('invalid_params', `The MCP server ${server} needs the secret ${name}, which is not set. Add it in Settings → Secrets.`);
    return value;
  }
  if (inner.startsWith('env:')) {
    const name = inner.slice('env:'.length);
    if (!NAME.test(name)) return null;
    if (isToolbeltEnvironmentName(name)) throw reserved(server, name);
    const value = sources.environment(name);
    if (value === undefined) throw new ToolbeltError('invalid_params', `The MCP server ${server} needs the environment variable ${name}, which is not set where Toolbelt runs. Set it, or name a secret instead: \${secret.NAME}.`);
    return value;
  }
  const [name, fallback] = splitDefault(inner);
  if (!NAME.test(name)) return null;
  if (isToolbeltEnvironmentName(name)) throw reserved(server, name);
  const secret = await sources.secret(name);
  if (secret !== null) return secret;
  const environment = sources.environment(name);
  if (environment !== undefined) return environment;
  if (fallback !== undefined) return fallback;
  throw new ToolbeltError('invalid_params', `The MCP server ${server} needs \${${name}}: there is no secret and no environment variable of that name. Add the secret in Settings → Secrets.`);
}

function splitDefault(inner: string): [string, string | undefined] {
  const at = inner.indexOf(':-');
  return at === -1 ? [inner, undefined] : [inner.slice(0, at), inner.slice(at + 2)];
}
