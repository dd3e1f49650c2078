// @vitest-environment happy-dom
import { expect, it } from 'vitest';
import { keepAppProcessWarm } from './warm-process.js';

it('keeps one hidden frame of the sandbox’s /warm page for the window’s life, made once however many apps show', () => {
  keepAppProcessWarm('http://127.0.0.1:4567');
  keepAppProcessWarm('http://127.0.0.1:4567');
  const frames = document.querySelectorAll('iframe');
  expect(frames).toHaveLength(1);
  const frame = frames[0]!;
  expect(frame.getAttribute('src')).toBe(`http://127.0.0.1:4567/warm?host=${encodeURIComponent(window.location.origin)}`);
  // Out of sight and out of reach: no focus, nothing read aloud; its page keeps the sandbox's origin, runs no script.
  expect(frame.hidden).toBe(true);
  expect(frame.tabIndex).toBe(-1);
  expect(frame.getAttribute('aria-hidden')).toBe('true');
  expect(frame.getAttribute('sandbox')).toBe('allow-same-origin');
  // Taken away (the page's body replaced): the next app makes it again.
  frame.remove();
  keepAppProcessWarm('http://127.0.0.1:4567');
  expect(document.querySelectorAll('iframe')).toHaveLength(1);
});
