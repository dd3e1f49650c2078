/**
 * The Content-Security-Policy an MCP App runs under: what its resource
 * declares (`_meta.ui.csp`) and nothing more. An app is one HTML document
 * with its scripts and styles inline; it may load from the origins it names
 * as resource domains, connect to its connect domains, frame its frame
 * domains, and nothing else: no other network, no plugins, no forms sent
 * anywhere. Entries that are not plain origins are dropped (a policy is
 * text, and a `;` or a quote in a domain would write a rule of its own).
 */
export interface AppCspDeclaration {
  connectDomains?: unknown;
  resourceDomains?: unknown;
  frameDomains?: unknown;
  baseUriDomains?: unknown;
}

/** An origin, or a wildcard of a domain's subdomains: scheme, host, port; nothing else. */
const ORIGIN = /^(?:https?|wss?):\/\/(?:\*\.)?[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::\d{1,5})?$/i;
const MAX_ENTRIES = 32;

/** The origins of one list a resource declared, as a policy may hold them; what is not one is left out. */
export function declaredOrigins(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return [...new Set(list.filter((entry): entry is string => typeof entry === 'string' && entry.length <= 300 && ORIGIN.test(entry)).map((entry) => entry.toLowerCase()))].slice(
    0,
    MAX_ENTRIES,
  );
}

/** The policy for an app's document, from what its resource declared. */
export function appCsp(declared: AppCspDeclaration | undefined): string {
  const resources = declaredOrigins(declared?.resourceDomains);
  const connect = declaredOrigins(declared?.connectDomains);
  const frames = declaredOrigins(declared?.frameDomains);
  const bases = declaredOrigins(declared?.baseUriDomains);
  const directive = (name: string, origins: string[], ...own: string[]) => `${name} ${[...own, ...origins].join(' ') || "'none'"}`;
  return [
    "default-src 'none'",
    // 'self' is the sandbox's own origin, which serves only the relay around the app. Code in data: and blob: URLs is
    // code the app already holds (a PDF viewer starts its worker so), no more than its inline scripts: nothing from the
    // network.
    directive('script-src', resources, "'self'", "'unsafe-inline'", 'data:', 'blob:'),
    directive('style-src', resources, "'unsafe-inline'"),
    directive('img-src', resources, 'data:', 'blob:'),
    directive('font-src', resources, 'data:'),
    directive('media-src', resources, 'data:', 'blob:'),
    directive('worker-src', resources, 'blob:'),
    directive('connect-src', connect),
    directive('frame-src', frames),
    directive('base-uri', bases),
    "form-action 'none'",
    "object-src 'none'",
  ].join('; ');
}

/** The device features an app may declare (`_meta.ui.permissions`), by the name the spec gives and the iframe feature each is. */
const APP_FEATURES: Readonly<Record<string, string>> = { camera: 'camera', microphone: 'microphone', geolocation: 'geolocation', clipboardWrite: 'clipboard-write' };

/** The sensor and device permissions an app declared, as an iframe's `allow` attribute names them; the person allows them. */
export function appPermissions(declared: unknown): string[] {
  if (!declared || typeof declared !== 'object') return [];
  const wanted = declared as Record<string, unknown>;
  return Object.entries(APP_FEATURES)
    .filter(([key]) => wanted[key] !== undefined && wanted[key] !== false)
    .map(([, feature]) => feature);
}

/** Iframe features back in the spec's shape (`{ camera: {} }`), for the app's sandbox and what the host says it allowed; unknown names are dropped. */
export function permissionsObject(features: readonly string[]): Record<string, Record<string, never>> {
  return Object.fromEntries(Object.entries(APP_FEATURES).filter(([, feature]) => features.includes(feature)).map(([key]) => [key, {}]));
}

/** An `allow` attribute delegating these features (known ones only, in the spec's shape) to whatever the frame holds. */
export function allowAttribute(permissions: unknown): string {
  return appPermissions(permissions)
    .map((feature) => `${feature} *`)
    .join('; ');
}
