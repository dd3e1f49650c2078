/**
 * Which device permissions the desktop app's session grants: none to the
 * window itself, and to an MCP App only the features it declared and the
 * person allowed. The window delegates those with its app frame's `allow`
 * attribute (after the person's yes in the card), the relay passes them on
 * to the app's frame alone, and Chromium refuses a frame whose permissions
 * policy lacks the feature before it asks the session. So the session's
 * answer is: yes to a request from inside an app frame (the sandbox's origin,
 * or the app's own document under it) for a feature an app may declare; no
 * to everything else, the window included.
 */

/** Electron's permission names for the features an app may declare (camera and microphone are both "media"). */
const APP_FEATURE_PERMISSIONS = new Set(['media', 'geolocation', 'clipboard-sanitized-write']);
const MEDIA_TYPES = new Set(['video', 'audio']);

export interface PermissionAsk {
  /** Electron's name of the permission. */
  permission: string;
  /** The URL of the frame asking (the app's document inside the relay: the sandbox's `/doc/<digest>`, or `about:srcdoc`). */
  requestingUrl: string | undefined;
  isMainFrame: boolean;
  /** Media requests: which devices ("video", "audio"); "unknown" is not granted. */
  mediaTypes?: readonly string[];
  /** The origin of the top-level page the frame sits in: the window's. */
  embeddingOrigin?: string | undefined;
}

function originOf(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Whether the desktop app's session grants this request (see above). */
export function grantsDevicePermission(ask: PermissionAsk, place: { sandboxOrigin: string; windowOrigin: string }): boolean {
  if (ask.isMainFrame || !APP_FEATURE_PERMISSIONS.has(ask.permission)) return false;
  // Only inside Toolbelt's own window: the same sandbox page framed by anything else asks nothing.
  if (ask.embeddingOrigin !== undefined && ask.embeddingOrigin !== place.windowOrigin) return false;
  const fromApp = ask.requestingUrl === 'about:srcdoc' || originOf(ask.requestingUrl) === place.sandboxOrigin;
  if (!fromApp) return false;
  if (ask.permission === 'media') return ask.mediaTypes !== undefined && ask.mediaTypes.length > 0 && ask.mediaTypes.every((type) => MEDIA_TYPES.has(type));
  return true;
}
