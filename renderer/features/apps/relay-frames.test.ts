// @vitest-environment happy-dom
import { afterEach, expect, it, vi } from 'vitest';
import { APP_DOCUMENT_MISSING } from '../../../shared/mcp/app-relay.js';
import { keepRelayInStandby, placeRelayFrame } from './relay-frames.js';

const ORIGIN = 'http://127.0.0.1:4567';
const DIGEST = 'a'.repeat(64);
const host = encodeURIComponent(window.location.origin);
const app = { origin: ORIGIN, src: `${ORIGIN}/app?host=${host}&doc=${DIGEST}`, digest: DIGEST, allow: '' };

/** happy-dom has no `moveBefore`: here it moves as a plain insert would (Chromium keeps the frame's page; e2e shows it). */
function withMoveBefore() {
  Element.prototype.moveBefore = function (this: Element, node: Node, child: Node | null) {
    this.insertBefore(node, child);
  };
  vi.stubGlobal('requestIdleCallback', (run: () => void) => (run(), 0));
}

function card(): HTMLElement {
  const slot = document.createElement('div');
  document.body.append(slot);
  return slot;
}

afterEach(() => {
  delete (Element.prototype as Partial<Element>).moveBefore;
  vi.unstubAllGlobals();
  document.body.replaceChildren();
});

it('without a way to move a frame keeping its page, each app loads its own relay, with only the features the person allowed', () => {
  keepRelayInStandby(ORIGIN);
  expect(document.querySelectorAll('iframe')).toHaveLength(0);
  const slot = card();
  const placed = placeRelayFrame(slot, { ...app, allow: 'camera *' });
  expect(placed.frame.parentElement).toBe(slot);
  expect(placed.frame.className).toBe('mcp-app__frame');
  expect(placed.frame.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin allow-forms');
  expect(placed.frame.getAttribute('allow')).toBe('camera *');
  expect(placed.frame.getAttribute('src')).toBeNull();
  placed.start();
  expect(placed.frame.getAttribute('src')).toBe(app.src);
});

it('loads one relay ahead, hidden; the next app with a served document takes it, loads its document into it, and another waits', () => {
  withMoveBefore();
  keepRelayInStandby(ORIGIN);
  keepRelayInStandby(ORIGIN);
  const waiting = [...document.querySelectorAll('iframe')];
  expect(waiting).toHaveLength(1);
  const ahead = waiting[0]!;
  expect(ahead.getAttribute('src')).toBe(`${ORIGIN}/app?standby&host=${host}`);
  // Out of sight and out of reach, and not an app's frame to anything that looks for one.
  expect(ahead.hidden).toBe(true);
  expect(ahead.tabIndex).toBe(-1);
  expect(ahead.getAttribute('aria-hidden')).toBe('true');
  expect(ahead.className).toBe('');

  // Still loading: an app that comes now loads its own, and the waiting one stays for later.
  const early = placeRelayFrame(card(), app);
  expect(early.frame).not.toBe(ahead);
  expect(ahead.parentElement).toBe(document.body);

  ahead.dispatchEvent(new Event('load'));
  // The relay's page, cross-origin: all the window may do there is navigate the app's frame inside it.
  const replace = vi.fn();
  Object.defineProperty(ahead, 'contentWindow', { value: { frames: [{ location: { replace } }] } });
  const slot = card();
  const placed = placeRelayFrame(slot, app);
  expect(placed.frame).toBe(ahead);
  expect(ahead.parentElement).toBe(slot);
  expect(ahead.hidden).toBe(false);
  expect(ahead.hasAttribute('tabindex')).toBe(false);
  expect(ahead.hasAttribute('aria-hidden')).toBe(false);
  expect(ahead.className).toBe('mcp-app__frame');
  placed.start();
  // The document the sandbox serves by digest, for this window only, without a history entry.
  expect(replace).toHaveBeenCalledWith(`${ORIGIN}/doc/${DIGEST}?host=${host}`);
  // Should the moved page load again, its app frame gets the document again.
  ahead.dispatchEvent(new Event('load'));
  expect(replace).toHaveBeenCalledTimes(2);

  const next = [...document.body.querySelectorAll(':scope > iframe[hidden]')];
  expect(next).toHaveLength(1);
  expect(next[0]).not.toBe(ahead);
});

it('an app that needs device features, or whose document the sandbox does not hold, does not take the relay loaded ahead', () => {
  withMoveBefore();
  keepRelayInStandby(ORIGIN);
  const ahead = document.querySelector('iframe')!;
  ahead.dispatchEvent(new Event('load'));
  // Features are fixed as a frame loads: the waiting one has none.
  expect(placeRelayFrame(card(), { ...app, allow: 'camera *' }).frame).not.toBe(ahead);
  // Without a digest the relay asks the window for the text, under the app's own policy in its URL.
  const { digest: _digest, ...unserved } = app;
  expect(placeRelayFrame(card(), unserved).frame).not.toBe(ahead);
  expect(ahead.parentElement).toBe(document.body);
  expect(placeRelayFrame(card(), app).frame).toBe(ahead);
});

it('a waiting relay whose document the sandbox no longer holds becomes a relay of the app’s own, which asks for the text', () => {
  withMoveBefore();
  keepRelayInStandby(ORIGIN);
  const ahead = document.querySelector('iframe')!;
  ahead.dispatchEvent(new Event('load'));
  const replace = vi.fn();
  const relayWindow = { frames: [{ location: { replace } }] };
  Object.defineProperty(ahead, 'contentWindow', { value: relayWindow });
  const placed = placeRelayFrame(card(), app);
  placed.start();
  const missing = { jsonrpc: '2.0', method: APP_DOCUMENT_MISSING };
  // Said by anyone but that relay, from anywhere but the sandbox: nothing happens.
  window.dispatchEvent(new MessageEvent('message', { data: missing, origin: ORIGIN, source: window }));
  window.dispatchEvent(new MessageEvent('message', { data: missing, origin: 'http://127.0.0.1:9999', source: relayWindow as unknown as Window }));
  expect(ahead.getAttribute('src')).toBe(`${ORIGIN}/app?standby&host=${host}`);
  window.dispatchEvent(new MessageEvent('message', { data: missing, origin: ORIGIN, source: relayWindow as unknown as Window }));
  expect(ahead.getAttribute('src')).toBe(app.src);
  // Its new page is not given the document it lacks.
  ahead.dispatchEvent(new Event('load'));
  expect(replace).toHaveBeenCalledTimes(1);
  placed.close();
  expect(ahead.isConnected).toBe(false);
});
