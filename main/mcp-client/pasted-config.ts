import { ToolbeltError } from '../../shared/errors.js';
import { McpServerConfigSchema, McpServerNameSchema, type McpServerConfig } from '../../shared/schemas/mcp.js';
import { compileOnFirstUse, describeIssues, issuesFrom } from '../common/validation.js';

const validConfig = compileOnFirstUse(McpServerConfigSchema, { strict: false });
// Checked against the shape it means (a command, or a URL), so its problems are that shape's only.
const [stdioShape, remoteShape] = McpServerConfigSchema.anyOf;
const validStdio = compileOnFirstUse(stdioShape, { strict: false });
const validRemote = compileOnFirstUse(remoteShape, { strict: false });
const validName = compileOnFirstUse(McpServerNameSchema, { strict: false });

/** Keys other apps keep beside a server that say nothing about how to reach it: left behind. */
const OTHER_APPS_KEYS = new Set(['autoApprove', 'alwaysAllow', 'disabledTools', 'description', 'gallery', 'version']);

/** A VS Code input's id as the name of a secret: letters, digits and "_", upper case. */
export function secretNameForInput(id: string): string {
  const name = id.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '').toUpperCase();
  return /^[0-9]/.test(name) || name === '' ? `INPUT_${name}` : name;
}

/** Every string in a value with VS Code's `${input:id}` named as the secret it becomes. */
function withInputsAsSecrets(value: unknown, asked: Set<string>): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{input:([^}]{1,200})\}/g, (_whole, id: string) => {
      const name = secretNameForInput(id.trim());
      asked.add(name);
      return `\${secret.${name}}`;
    });
  }
  if (Array.isArray(value)) return value.map((item) => withInputsAsSecrets(item, asked));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withInputsAsSecrets(item, asked)]));
  return value;
}

/**
 * One server as other apps write it, in Toolbelt's shape: Claude Code's and
 * Cursor's `"type": "stdio"` beside a command, Windsurf's `serverUrl`, VS
 * Code's `${input:…}` (a secret of that name), and keys other apps keep for
 * themselves left behind.
 */
function normalized(entry: unknown, asked: Set<string>): unknown {
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return entry;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) if (!OTHER_APPS_KEYS.has(key)) copy[key] = value;
  if (copy.type === 'stdio' && 'command' in copy) delete copy.type;
  if ('serverUrl' in copy && !('url' in copy)) {
    copy.url = copy.serverUrl;
    delete copy.serverUrl;
  }
  return withInputsAsSecrets(copy, asked);
}

/**
 * The servers of a pasted document, in any of the shapes people copy:
 * `{ "mcpServers": { … } }` (Claude Desktop, Claude Code, Cursor,
 * Windsurf) or VS Code's `{ "servers": { … }, "inputs": [ … ] }`. Every
 * server is checked before any is added: one that cannot be used refuses
 * the paste with its name and why, so nothing is written that cannot be
 * read back. Returns the secrets the servers name through VS Code inputs, to
 * be set in Settings → Secrets.
 */
export function serversFromPaste(document: { mcpServers?: Record<string, unknown>; servers?: Record<string, unknown> }): { servers: Record<string, McpServerConfig>; secretsToSet: string[] } {
  const entries = { ...(document.servers ?? {}), ...(document.mcpServers ?? {}) };
  if (Object.keys(entries).length === 0) throw new ToolbeltError('invalid_params', 'The pasted JSON has no servers: paste a { "mcpServers": { … } } block, or VS Code\'s { "servers": { … } }.');
  const asked = new Set<string>();
  const servers: Record<string, McpServerConfig> = {};
  const problems: { path: string; message: string }[] = [];
  for (const [rawName, entry] of Object.entries(entries)) {
    const name = rawName.trim();
    if (!validName(name)) {
      problems.push({ path: `/${rawName}`, message: `"${rawName.slice(0, 80)}" cannot be a server's name: use 1 to 64 characters, without control characters` });
      continue;
    }
    const config = normalized(entry, asked);
    if (!validConfig(config)) {
      const shape = config && typeof config === 'object' && 'command' in config ? validStdio : validRemote;
      shape(config);
      problems.push({ path: `/${name}`, message: `${name}: ${describeIssues(issuesFrom(shape.errors))}` });
      continue;
    }
    servers[name] = config as McpServerConfig;
  }
  if (problems.length) {
    throw new ToolbeltError('invalid_params', `Nothing was added: ${problems.map((problem) => problem.message).join('; ')}.`, { issues: problems });
  }
  return { servers, secretsToSet: [...asked] };
}
