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
  const fromHash = takeTokenFromAddress();
  // Opening the address again in this tab changes only the fragment: no new page, so the fragment is read here too.
  window.addEventListener('hashchange', () => {
    const before = sessionStorage.getItem(TOKEN_KEY);
    const token = takeTokenFromAddress();
    // A new token (the host was started again) needs a new connection: start the page again on it.
    if (token && token !== before) window.location.reload();
  });
  const token = fromHash ?? sessionStorage.getItem(TOKEN_KEY);
  return token ? createHttpTransport(window.location.origin, token) : null;
}

/** The `#token=` of the address, moved to sessionStorage and out of the address bar. */
function takeTokenFromAddress(): string | null {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token');
  if (!token) return null;
  sessionStorage.setItem(TOKEN_KEY, token);
  history.replaceState(null, '', window.location.pathname + window.location.search);
  return token;
}
