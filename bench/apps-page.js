// Functions the MCP Apps bench runs inside pages and frames (passed to
// page.evaluate or addInitScript): plain browser JavaScript, as ui-page.js.
// Signatures in apps-page.d.ts.

/** Notes the moment each app frame enters the window (the card decided to show an app), for takeAppFrameTimes. */
export function watchAppFrames() {
  const seen = [];
  window.__appFramesAt = seen;
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        const isAppFrame = node instanceof HTMLIFrameElement && node.classList.contains('mcp-app__frame');
        if (isAppFrame || (node instanceof Element && node.querySelector('iframe.mcp-app__frame'))) seen.push(performance.timeOrigin + performance.now());
      }
    }
  }).observe(document, { childList: true, subtree: true });
}

export function takeAppFrameTimes() {
  return window.__appFramesAt.splice(0);
}

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

/** Scrolls the element matched by `selector` (or the page) from top to bottom and back in steps of `step` px, a frame apart. */
export async function scrollThrough({ selector, step }) {
  const box = selector ? document.querySelector(selector) : document.scrollingElement;
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  box.scrollTop = 0;
  await frame();
  let steps = 0;
  while (box.scrollTop + box.clientHeight < box.scrollHeight - 1) {
    box.scrollTop += step;
    steps++;
    await frame();
  }
  while (box.scrollTop > 0) {
    box.scrollTop -= step;
    steps++;
    await frame();
  }
  return steps;
}
