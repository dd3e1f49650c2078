import { ToolbeltError } from '../errors.js';

/** The scheme the desktop app registers; the browser host takes the same links at `/link?to=…`. */
export const LINK_SCHEME = 'toolbelt';
/** A link longer than this is refused before it is read (a config of a few servers is a few KB). */
export const MAX_LINK_LENGTH = 64 * 1024;
const MAX_CHAT_TEXT = 20_000;

/** A document as `mcpServers.import` takes it. */
export interface ServersDocument {
  mcpServers?: Record<string, unknown>;
  servers?: Record<string, unknown>;
  inputs?: unknown[];
}

export type ToolbeltLink = { kind: 'mcp-install'; document: ServersDocument } | { kind: 'chat-new'; text: string };

const invalid = (why: string) => new ToolbeltError('link_invalid', `This Toolbelt link cannot be used: ${why}`);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Standard or URL-safe base64, with or without padding, as text; null when it is not base64. */
function fromBase64(text: string): string | null {
  const normal = text.replace(/-/g, '+').replace(/_/g, '/').replace(/\s/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(normal)) return null;
  try {
    const binary = atob(normal.padEnd(Math.ceil(normal.length / 4) * 4, '='));
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
  } catch {
    return null;
  }
}

/**
 * The servers of a link's config in `mcpServers.import`'s shapes: Claude's
 * and Cherry Studio's `{ "mcpServers": { … } }`, VS Code's `{ "servers": …,
 * "inputs": … }`, or VS Code's install link (one server with its `name`), or
 * a list of those.
 */
export function serversDocumentOf(value: unknown): ServersDocument {
  if (isObject(value) && isObject(value.mcpServers)) return { mcpServers: value.mcpServers };
  if (isObject(value) && isObject(value.servers)) return { servers: value.servers, ...(Array.isArray(value.inputs) ? { inputs: value.inputs } : {}) };
  const singles = Array.isArray(value) ? value : [value];
  const servers: Record<string, unknown> = {};
  for (const single of singles.slice(0, 100)) {
    if (!isObject(single) || typeof single.name !== 'string' || !(typeof single.command === 'string' || typeof single.url === 'string')) {
      throw invalid('its config is not an MCP server document ({ "mcpServers": … }, { "servers": … }, or a server with a name and a command or url).');
    }
    const { name, inputs: _inputs, ...config } = single;
    servers[name] = config;
  }
  const inputs = singles.flatMap((single): unknown[] => (isObject(single) && Array.isArray(single.inputs) ? (single.inputs as unknown[]) : []));
  return { servers, ...(inputs.length ? { inputs } : {}) };
}

/** Reads `toolbelt://mcp/install?config=<base64 JSON>` or `toolbelt://chat/new?q=<text>`; anything else is refused with why. */
export function parseToolbeltLink(link: string): ToolbeltLink {
  if (link.length > MAX_LINK_LENGTH) throw invalid(`it is longer than ${MAX_LINK_LENGTH / 1024} KB.`);
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw invalid('it is not a link.');
  }
  if (url.protocol !== `${LINK_SCHEME}:`) throw invalid(`it is not a ${LINK_SCHEME}:// link.`);
  // toolbelt://mcp/install parses with "mcp" as the host; toolbelt:mcp/install (VS Code's style) as the path.
  const route = `${url.host}${url.pathname}`.replace(/^\/+|\/+$/g, '');
  if (route === 'chat/new') {
    const text = url.searchParams.get('q') ?? '';
    if (text.length > MAX_CHAT_TEXT) throw invalid(`its message is longer than ${MAX_CHAT_TEXT} characters.`);
    return { kind: 'chat-new', text };
  }
  if (route === 'mcp/install') {
    const config = url.searchParams.get('config');
    if (!config) throw invalid('it has no config=.');
    const text = fromBase64(config) ?? config;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw invalid('its config is neither base64 JSON nor JSON.');
    }
    return { kind: 'mcp-install', document: serversDocumentOf(value) };
  }
  throw invalid(`Toolbelt does not know ${route || 'its address'} (it takes mcp/install and chat/new).`);
}
