/**
 * The outer frame of an MCP App, served from the app sandbox's own origin
 * (never the window's): it holds the app's document in an inner frame whose
 * origin is opaque (sandboxed without allow-same-origin: no storage, no way
 * into this relay, the window or another app), and relays the app's
 * JSON-RPC messages to and from the window that embedded it, and nobody
 * else. When the sandbox had the app's document, the page came with the
 * inner frame loading it (main/server/app-sandbox.ts); otherwise this script
 * makes the frame, asks the window for the text and writes it in, and the
 * policy this page was served with (what the app declared) is the inner
 * document's too: a srcdoc document inherits it.
 */
import { allowAttribute } from '../../shared/mcp/app-csp.js';

const PROXY_READY = 'ui/notifications/sandbox-proxy-ready';
const RESOURCE_READY = 'ui/notifications/sandbox-resource-ready';
/** More than this many messages a second from the app are dropped: a flood must not freeze the window. */
const MESSAGES_PER_SECOND = 300;

const claimedHost = new URLSearchParams(location.search).get('host');
if (window.top === window || !claimedHost) throw new Error('The MCP App sandbox runs only inside Toolbelt.');
const hostOrigin: string = claimedHost;

declare global {
  interface Window {
    /** The page's inline script keeps what arrived before this script ran (app-sandbox.html). */
    relayEarly?: MessageEvent[];
    relayBuffer?: (event: MessageEvent) => void;
  }
}

const served = document.querySelector('iframe');
const inner = served ?? document.createElement('iframe');
if (!served) {
  inner.setAttribute('sandbox', 'allow-scripts allow-forms');
  inner.title = 'MCP App';
  document.body.append(inner);
}

let windowStart = 0;
let sentInWindow = 0;
function withinRate(now: number): boolean {
  if (now - windowStart >= 1000) {
    windowStart = now;
    sentInWindow = 0;
  }
  sentInWindow += 1;
  return sentInWindow <= MESSAGES_PER_SECOND;
}

interface ResourceReady {
  method: typeof RESOURCE_READY;
  params: { html?: unknown; permissions?: unknown };
}
const isResourceReady = (data: unknown): data is ResourceReady =>
  typeof data === 'object' && data !== null && (data as { method?: unknown }).method === RESOURCE_READY && typeof (data as { params?: unknown }).params === 'object';

function relay(event: MessageEvent) {
  if (event.source === window.parent) {
    // Only the window that embedded this frame speaks for the host.
    if (event.origin !== hostOrigin) return;
    if (isResourceReady(event.data)) {
      // Device features go on to the app only as the window passes them, which it does once the person allowed them; this
      // frame itself has them only if the window's own frame delegated them, so nothing else can be granted from here.
      const { html, permissions } = event.data.params;
      inner.allow = allowAttribute(permissions);
      if (typeof html === 'string') inner.srcdoc = html;
      return;
    }
    inner.contentWindow?.postMessage(event.data, '*');
    return;
  }
  if (event.source === inner.contentWindow && inner.contentWindow !== null) {
    if (!withinRate(performance.now())) return;
    window.parent.postMessage(event.data, hostOrigin);
  }
}

if (window.relayBuffer) window.removeEventListener('message', window.relayBuffer);
window.addEventListener('message', relay);
for (const early of window.relayEarly?.splice(0) ?? []) relay(early);
// A relay that holds the app's document already has nothing to ask the window for.
if (!served) window.parent.postMessage({ jsonrpc: '2.0', method: PROXY_READY, params: {} }, hostOrigin);
