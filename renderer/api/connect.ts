import type { ToolbeltBridge } from '../../shared/ipc.js';
import { createHttpTransport } from './http-transport.js';
import { createIpcTransport } from './ipc-transport.js';
import type { Transport } from './transport.js';

const TOKEN_KEY = 'toolbelt.token';

declare global {
  interface Window {
    toolbelt?: ToolbeltBridge;
  }
}

/**
 * Picks the transport for this window: preload's bridge under Electron, or
 * the browser host with the token from the URL fragment. The token is moved
 * to sessionStorage and removed from the address bar so it does not end up
 * in screenshots, bookmarks or shared links.
 */
export function connectToCore(): Transport | null {
  if (window.toolbelt) return createIpcTransport(window.toolbelt);
  const fromHash = new URLSearchParams(window.location.hash.slice(1)).get('token');
  if (fromHash) {
    sessionStorage.setItem(TOKEN_KEY, fromHash);
    history.replaceState(null, '', window.location.pathname + window.location.search);
  }
  const token = fromHash ?? sessionStorage.getItem(TOKEN_KEY);
  return token ? createHttpTransport(window.location.origin, token) : null;
}
