import { BlockList, isIP } from 'node:net';

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

// Loopback, link-local and unspecified addresses: a link there could poke at
// services on this machine or its network link. Node's BlockList also
// matches IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) against IPv4 rules.
const LOCAL_ADDRESSES = new BlockList();
LOCAL_ADDRESSES.addSubnet('127.0.0.0', 8, 'ipv4');
LOCAL_ADDRESSES.addSubnet('0.0.0.0', 8, 'ipv4');
LOCAL_ADDRESSES.addSubnet('169.254.0.0', 16, 'ipv4');
LOCAL_ADDRESSES.addAddress('::1', 'ipv6');
LOCAL_ADDRESSES.addAddress('::', 'ipv6');
LOCAL_ADDRESSES.addSubnet('fe80::', 10, 'ipv6');

/**
 * Whether a URL's host is this machine or its link, in any spelling: URL
 * parsing already turns numeric forms (2130706433, 0x7f.1) into dotted
 * IPv4; trailing dots (`localhost.`) and brackets are removed here.
 */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.+$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const family = isIP(bare);
  if (family === 0) return false;
  return LOCAL_ADDRESSES.check(bare, family === 4 ? 'ipv4' : 'ipv6');
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
  if (isLocalHost(parsed.hostname)) return null;
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
