/** The renderer's only origin under Electron. */
export const APP_SCHEME = 'app';
export const APP_HOST = 'toolbelt';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

export function isAppUrl(url: string): boolean {
  try {
    // Node's URL gives custom schemes an opaque "null" origin, so compare parts.
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
  } catch {
    return false;
  }
}

/**
 * A link the user clicked that should open in the system browser, or null
 * when it must not be opened at all: only http(s), no embedded credentials,
 * no loopback or link-local hosts that could poke at local services.
 */
export function externalUrlToOpen(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  if (parsed.username || parsed.password) return null;
  const host = parsed.hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\./.test(host)) return null;
  if (/^(0\.0\.0\.0|169\.254\.)/.test(host)) return null;
  return parsed.toString();
}

export interface SenderFacts {
  /** URL of the frame that sent the message; null when it is gone. */
  frameUrl: string | null;
  /** The frame is the top frame of its page (not an iframe). */
  isMainFrame: boolean;
  /** The message came from our own window's web contents. */
  fromOwnWindow: boolean;
}

/** IPC is answered only for our own window's top frame showing app:// content. */
export function isTrustedSender(facts: SenderFacts): boolean {
  return facts.fromOwnWindow && facts.isMainFrame && facts.frameUrl !== null && isAppUrl(facts.frameUrl);
}
