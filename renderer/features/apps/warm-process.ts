/** The one frame that keeps the apps' process started; made with the first app the window shows. */
let warmFrame: HTMLIFrameElement | null = null;

/**
 * Keeps an empty frame of the kind apps run in (an opaque origin from the
 * app sandbox's) hidden in the window for as long as it lives. The browser
 * puts all such frames in one process of their own, apart from the window;
 * without a frame left in it, that process ends with the last app, and the
 * next app waits for a new one to start and compile its code again. Made
 * only once an app was shown: a window without apps pays nothing for it.
 */
export function keepAppProcessWarm(sandboxOrigin: string): void {
  if (warmFrame?.isConnected) return;
  const frame = document.createElement('iframe');
  frame.hidden = true;
  frame.tabIndex = -1;
  frame.setAttribute('aria-hidden', 'true');
  // Its page keeps the sandbox's origin, so the empty frame inside it is the apps' kind (main/server/app-sandbox.ts).
  frame.setAttribute('sandbox', 'allow-same-origin');
  frame.referrerPolicy = 'no-referrer';
  frame.src = `${sandboxOrigin}/warm?host=${encodeURIComponent(window.location.origin)}`;
  document.body.append(frame);
  warmFrame = frame;
}
