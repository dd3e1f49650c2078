import { APP_DOCUMENT_MISSING } from '../../../shared/mcp/app-relay.js';

/**
 * The frames MCP Apps' relays load in (renderer/app-sandbox/relay.ts), and
 * one loaded ahead: a card that shows an app takes the relay waiting hidden
 * in the window, whose page was parsed while nothing else happened, rather
 * than loading one as the chat draws the call (in the browser host the relay
 * shares the window's busy main thread). Moved into the card with
 * `moveBefore`, which keeps a frame's document, its empty app frame is then
 * navigated to the app's document by the window itself (a page may navigate
 * any frame inside its own), so nothing waits for the relay's script. Where
 * the browser cannot move frames, or the app needs device features (fixed
 * when a frame loads) or has no document on the sandbox's shelf, the card
 * loads a relay of its own; so does a waiting relay whose document the
 * sandbox turns out not to hold any more.
 */
let standby: { frame: HTMLIFrameElement; loaded: boolean } | null = null;
let preparing = false;

const canMoveFrames = () => typeof Element.prototype.moveBefore === 'function';

function relayFrame(): HTMLIFrameElement {
  const frame = document.createElement('iframe');
  // The relay keeps its own (sandbox) origin; the app inside it gets an opaque one of its own.
  frame.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms');
  frame.referrerPolicy = 'no-referrer';
  return frame;
}

function loadStandby(origin: string): void {
  preparing = false;
  if (standby?.frame.isConnected) return;
  const frame = relayFrame();
  frame.hidden = true;
  frame.tabIndex = -1;
  frame.setAttribute('aria-hidden', 'true');
  const waiting = { frame, loaded: false };
  frame.addEventListener('load', () => (waiting.loaded = true), { once: true });
  frame.src = `${origin}/app?standby&host=${encodeURIComponent(window.location.origin)}`;
  document.body.append(frame);
  standby = waiting;
}

/** Loads a relay ahead for the next app, once the window has a moment (not while it draws the card that asked). */
export function keepRelayInStandby(origin: string): void {
  if (!canMoveFrames() || preparing || standby?.frame.isConnected) return;
  preparing = true;
  requestIdleCallback(() => loadStandby(origin), { timeout: 2_000 });
}

export interface PlacedRelay {
  frame: HTMLIFrameElement;
  /** Starts the app once the window listens to the frame: loads its document into the waiting relay, or the relay page. */
  start: () => void;
  /** Takes the frame out of its card, and stops listening for it. */
  close: () => void;
}

/**
 * Puts an app's relay frame into `slot`: the one loaded ahead when it can
 * serve this app (a document on the shelf, no device features), otherwise a
 * new one that loads `src`.
 */
export function placeRelayFrame(slot: HTMLElement, app: { origin: string; src: string; digest?: string; allow: string }): PlacedRelay {
  const ready = standby;
  if (ready?.loaded && ready.frame.isConnected && app.digest && !app.allow && canMoveFrames()) {
    standby = null;
    // The next app's, in the window's next idle moment.
    keepRelayInStandby(app.origin);
    const { frame } = ready;
    frame.className = 'mcp-app__frame';
    frame.hidden = false;
    frame.removeAttribute('tabindex');
    frame.removeAttribute('aria-hidden');
    slot.moveBefore(frame, null);
    const documentUrl = `${app.origin}/doc/${app.digest}?host=${encodeURIComponent(window.location.origin)}`;
    // Without a history entry: Back in the window is not the app's.
    const load = () => frame.contentWindow?.frames[0]?.location.replace(documentUrl);
    // Should a browser load the moved frame's page again after all, its new app frame gets the document too.
    frame.addEventListener('load', load);
    // The sandbox no longer holds the document: this frame becomes a relay of the app's own, which asks for the text.
    const missing = (event: MessageEvent) => {
      if (event.source !== frame.contentWindow || event.origin !== app.origin || (event.data as { method?: unknown } | null)?.method !== APP_DOCUMENT_MISSING) return;
      window.removeEventListener('message', missing);
      frame.removeEventListener('load', load);
      frame.src = app.src;
    };
    window.addEventListener('message', missing);
    const close = () => {
      window.removeEventListener('message', missing);
      frame.remove();
    };
    return { frame, start: load, close };
  }
  const frame = relayFrame();
  frame.className = 'mcp-app__frame';
  // Only what the person allowed, delegated to the sandbox's origin (which passes it on to the app alone).
  if (app.allow) frame.allow = app.allow;
  slot.append(frame);
  return { frame, start: () => (frame.src = app.src), close: () => frame.remove() };
}
