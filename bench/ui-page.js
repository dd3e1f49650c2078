// Functions the UI bench runs inside the page (passed to page.evaluate or
// addInitScript): plain browser JavaScript, kept apart from the bench's
// TypeScript, whose program has no DOM types. Signatures in ui-page.d.ts.

/** Collects every long task (over 50 ms) the page runs, for takeLongestTask. */
export function watchLongTasks() {
  const tasks = [];
  window.__longTasks = tasks;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: true });
}

/** The longest task since the last call (0 when none). */
export function takeLongestTask() {
  const seen = window.__longTasks.splice(0);
  return seen.length ? Math.max(...seen) : 0;
}

/**
 * Arms a watch, in the page, that settles once the chat's message list shows
 * the answer's last word. It reads the list's text once a frame, which the
 * stream figure counts as the app's work (a small share beside rendering).
 */
export function armStreamWatch(lastWord) {
  // Watched by what the person sees, not by the list's busy flag: a short stream (the smoke run's) could turn busy
  // and idle between two observer callbacks, and a watch that waited for the flag waited forever.
  window.__streamDone = new Promise((resolve) => {
    const untilShown = () => {
      const log = document.querySelector('[role=log]');
      if (log?.textContent.includes(lastWord)) resolve(log.textContent);
      else requestAnimationFrame(untilShown);
    };
    untilShown();
  });
}

/** The message list's text once the armed watch saw the stream end and its last word shown; an error after two minutes. */
export function streamEnded() {
  const giveUp = new Promise((_, reject) => setTimeout(() => reject(new Error('the stream was not seen to end within 120 s')), 120_000));
  return Promise.race([window.__streamDone, giveUp]);
}

/**
 * The limit for streaming: the same pieces, as the same event-stream lines,
 * read from the network and appended to a plain element as they arrive.
 */
export async function streamToPlainElement(url) {
  const element = document.createElement('div');
  document.body.append(element);
  const reader = (await fetch(url)).body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  let pieces = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value;
    const events = buffered.split('\n\n');
    buffered = events.pop();
    for (const event of events) {
      if (!event.startsWith('data: ')) continue;
      element.append(JSON.parse(event.slice(6)).event.text);
      pieces++;
    }
  }
  return pieces;
}

/** Fetches a URL and parses its JSON: the least a page must do to have the value. */
export async function fetchAndParse(url) {
  JSON.parse(await (await fetch(url)).text());
}

/**
 * Arms a stopwatch for the next key press (a real one, from the bench): it
 * stops when the palette shows its first result, or after 10 s (Infinity).
 */
export function armPaletteStopwatch() {
  window.__paletteOpen = new Promise((resolve) => {
    window.addEventListener(
      'keydown',
      (event) => {
        const started = event.timeStamp;
        const giveUp = started + 10_000;
        const check = () => {
          if (document.querySelector('dialog[open] [role=option]')) resolve(performance.now() - started);
          else if (performance.now() > giveUp) resolve(Infinity);
          else requestAnimationFrame(check);
        };
        check();
      },
      { capture: true, once: true },
    );
  });
}

/** What the armed stopwatch measured. */
export function readPaletteStopwatch() {
  return window.__paletteOpen;
}

/** The time of an authorised GET of the core's API from the page, its JSON read. */
export async function timeApiGet({ url, token }) {
  const started = performance.now();
  await (await fetch(url, { headers: { Authorization: `Bearer ${token}` } })).json();
  return performance.now() - started;
}

/** Clicks a chat in the list, then the time until the text is on screen and painted. */
export function timeChatOpen({ title, text }) {
  const button = [...document.querySelectorAll('nav[aria-labelledby="chats-title"] button')].find((element) => element.textContent?.startsWith(title));
  const started = performance.now();
  button.click();
  return new Promise((resolve) => {
    const check = () => {
      if (document.querySelector('[role=log]')?.textContent?.includes(text)) requestAnimationFrame(() => resolve(performance.now() - started));
      else if (performance.now() - started > 10_000) resolve(Infinity);
      else requestAnimationFrame(check);
    };
    check();
  });
}

/**
 * Times each key typed from now on: from the key's event to the end of the
 * input it makes (its handlers, React's render of a controlled field among
 * them: `processing`), and to the frame drawn after it (`frame`: a task
 * queued once that frame's rendering ran). Listeners on the window run after
 * the app's, which React puts on its root.
 */
export function armKeyTiming() {
  const keys = [];
  window.__keys = keys;
  let current = null;
  window.addEventListener('keydown', (event) => (current = { start: event.timeStamp }), { capture: true });
  window.addEventListener('input', () => {
    if (!current) return;
    const key = current;
    current = null;
    key.processing = performance.now() - key.start;
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        key.frame = performance.now() - key.start;
        keys.push(key);
      };
      channel.port2.postMessage(0);
    });
  });
}

/** The keys timed since armKeyTiming, once the last one has been reported. */
export function takeKeyTimings(expected) {
  return new Promise((resolve) => {
    const started = performance.now();
    const check = () => {
      if (window.__keys.length >= expected || performance.now() - started > 5_000) resolve(window.__keys.splice(0));
      else setTimeout(check, 50);
    };
    check();
  });
}

/**
 * A photo of `width` × `height` pixels of noise (which compresses badly, as photos do), kept in the page as a JPEG
 * for pasteTimed and decodeTimed, of `leastBytes` at least: the lowest quality from 0.9 up that makes it so (the
 * goal is for a 10 MB picture; at 0.97 this Chromium makes 13 MB of it); its size in bytes.
 */
export async function makeNoisyPhoto({ width, height, leastBytes }) {
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d');
  const pixels = context.createImageData(width, height);
  const values = new Uint32Array(pixels.data.buffer);
  let seed = 1;
  for (let index = 0; index < values.length; index++) {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    values[index] = seed | 0xff000000;
  }
  context.putImageData(pixels, 0, 0);
  for (let quality = 0.9; ; quality += 0.01) {
    window.__photo = await canvas.convertToBlob({ type: 'image/jpeg', quality: Math.min(quality, 1) });
    if (window.__photo.size >= leastBytes || quality >= 1) return window.__photo.size;
  }
}

/** Pastes the photo into the message box as a screenshot is pasted: the time until its preview is drawn in the box. */
export function pasteTimed() {
  return new Promise((resolve) => {
    const box = document.querySelector('.composer textarea');
    const started = performance.now();
    const observer = new MutationObserver(() => {
      const preview = document.querySelector('.composer img.file-chip__thumb');
      if (!preview) return;
      observer.disconnect();
      preview.decode().then(() => requestAnimationFrame(() => resolve(performance.now() - started)));
    });
    observer.observe(document.body, { subtree: true, childList: true });
    const data = new DataTransfer();
    data.items.add(new File([window.__photo], 'photo.jpg', { type: 'image/jpeg' }));
    box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
}

/** The limit: the browser decoding the same photo, and nothing else. */
export async function decodeTimed() {
  const started = performance.now();
  const bitmap = await createImageBitmap(window.__photo);
  bitmap.close();
  return performance.now() - started;
}

/**
 * Watches running tool cards for stream events that say when they were sent ({"n", "sentAt"} in the progress line):
 * for each, the time from its sending to the frame it is first drawn in.
 */
export function armEventWatch() {
  const delays = new Map();
  const observer = new MutationObserver(() => {
    for (const line of document.querySelectorAll('.tool-card__progress')) {
      const match = /"n":(\d+),"sentAt":(\d+)/.exec(line.textContent ?? '');
      if (!match || delays.has(match[1])) continue;
      delays.set(match[1], null);
      requestAnimationFrame(() => delays.set(match[1], Date.now() - Number(match[2])));
    }
  });
  observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  window.__eventWatch = { observer, delays };
}

/** What armEventWatch saw: each event's delay in ms. */
export function takeEventDelays() {
  window.__eventWatch.observer.disconnect();
  return [...window.__eventWatch.delays.values()].filter((delay) => delay !== null);
}

/** The limit: the page reading the same stream itself, each event's delay to the next frame. */
export async function rawEventDelays(url) {
  const response = await fetch(url);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const delays = [];
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return delays;
    buffer += decoder.decode(value, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const match = /"sentAt":(\d+)/.exec(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (!match) continue;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      delays.push(Date.now() - Number(match[1]));
    }
  }
}
