// Functions the MCP Apps bench runs inside pages and frames (passed to
// page.evaluate or addInitScript): plain browser JavaScript, as ui-page.js.
// Signatures in apps-page.d.ts.

/** When this document first painted content, on the clock every frame shares (ms since the epoch). */
export function firstPaintAt() {
  return new Promise((resolve) => {
    new PerformanceObserver((list, observer) => {
      const paint = list.getEntriesByName('first-contentful-paint')[0];
      if (!paint) return;
      observer.disconnect();
      resolve(performance.timeOrigin + paint.startTime);
    }).observe({ type: 'paint', buffered: true });
  });
}

/**
 * Puts a plain iframe loading `url` into the page (with `sandbox`, as an
 * attribute, when given); when it went in, on the same clock.
 */
export function insertPlainFrame({ url, sandbox }) {
  const frame = document.createElement('iframe');
  frame.style.cssText = 'display:block;width:900px;height:400px;border:0';
  if (sandbox !== null) frame.setAttribute('sandbox', sandbox);
  const at = performance.timeOrigin + performance.now();
  frame.src = url;
  document.body.append(frame);
  return at;
}

/**
 * Scrolls the element matched by `selector` (or the page) from top to bottom and back in steps of `step` px, a frame
 * apart; at most 2,000 steps, should the content keep moving under it.
 */
export async function scrollThrough({ selector, step }) {
  const box = selector ? document.querySelector(selector) : document.scrollingElement;
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  box.scrollTop = 0;
  await frame();
  let steps = 0;
  while (box.scrollTop + box.clientHeight < box.scrollHeight - 1 && steps < 1000) {
    box.scrollTop += step;
    steps++;
    await frame();
  }
  while (box.scrollTop > 0 && steps < 2000) {
    box.scrollTop -= step;
    steps++;
    await frame();
  }
  return steps;
}

/**
 * Notes the moment each tool call's card enters the chat, for takeCardTimes: where the app's time starts, and the
 * twin's. When `window.__twinUrl` is set, also puts a plain iframe of that URL over the chat at once, as an app's frame
 * could enter at the earliest: the same document at the same busy moment, without the sandbox.
 */
export function watchToolCards() {
  const seen = [];
  window.__cardsAt = seen;
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (!(node instanceof Element) || !(node.matches('article.tool-card') || node.querySelector('article.tool-card'))) continue;
        seen.push(performance.timeOrigin + performance.now());
        const url = window.__twinUrl;
        if (!url) return;
        window.__twinUrl = null;
        const frame = document.createElement('iframe');
        frame.dataset.twin = '';
        frame.style.cssText = 'position:fixed;top:120px;left:320px;width:900px;height:400px;border:0;z-index:10;background:white';
        frame.src = url;
        document.body.append(frame);
        return;
      }
    }
  }).observe(document, { childList: true, subtree: true });
}

export function takeCardTimes() {
  return window.__cardsAt.splice(0);
}

/** Arms the twin for the next tool card (`url`), and takes away the last one. */
export function armTwin(url) {
  for (const frame of document.querySelectorAll('iframe[data-twin]')) frame.remove();
  window.__twinUrl = url;
}
