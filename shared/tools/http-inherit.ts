import type { BundleHttp, HttpImpl } from '../schemas/http-impl.js';

/** Which of a tool's settings come from its bundle: what the editor shows beside the tool's own. */
export interface Inherited {
  baseUrl?: string;
  auth?: boolean;
  /** Names of the bundle's headers the tool sends (its own of the same name win). */
  headers: string[];
  timeoutMs?: boolean;
}

export type EffectiveHttp =
  | { ok: true; impl: HttpImpl; allowedHosts: readonly string[]; inherited: Inherited }
  | { ok: false; problem: string };

/** A relative urlTemplate goes on from the bundle's base URL. */
export function isRelativeUrl(urlTemplate: string): boolean {
  return urlTemplate.startsWith('/');
}

/** `https://api.example.com/v1` + `/pets/${id}` → `https://api.example.com/v1/pets/${id}` (one slash between). */
export function joinBaseUrl(baseUrl: string, relative: string): string {
  return baseUrl.replace(/\/+$/, '') + relative;
}

/**
 * The request settings a tool runs with: its own, over what its bundle
 * defines. A relative URL starts at the bundle's base URL; auth and the
 * timeout are the bundle's unless the tool sets its own (`auth: none` is
 * setting it); headers are merged by name, the tool's winning; the bundle's
 * allowed hosts add to the global list.
 */
export function effectiveHttp(impl: HttpImpl, bundle: BundleHttp | undefined, globalHosts: readonly string[]): EffectiveHttp {
  const inherited: Inherited = { headers: [] };
  let urlTemplate = impl.urlTemplate;
  if (isRelativeUrl(urlTemplate)) {
    if (!bundle?.baseUrl) return { ok: false, problem: `its URL ${urlTemplate} is relative and its bundle has no base URL; set one on the bundle or write the full URL` };
    urlTemplate = joinBaseUrl(bundle.baseUrl, urlTemplate);
    inherited.baseUrl = bundle.baseUrl;
  }
  const merged: HttpImpl = { ...impl, urlTemplate };
  if (!impl.auth && bundle?.auth) {
    merged.auth = bundle.auth;
    inherited.auth = true;
  }
  if (impl.timeoutMs === undefined && bundle?.timeoutMs !== undefined) {
    merged.timeoutMs = bundle.timeoutMs;
    inherited.timeoutMs = true;
  }
  if (bundle?.headers) {
    const own = new Set(Object.keys(impl.headers ?? {}).map((name) => name.toLowerCase()));
    const fromBundle = Object.entries(bundle.headers).filter(([name]) => !own.has(name.toLowerCase()));
    if (fromBundle.length > 0) {
      merged.headers = { ...Object.fromEntries(fromBundle), ...impl.headers };
      inherited.headers = fromBundle.map(([name]) => name);
    }
  }
  return { ok: true, impl: merged, allowedHosts: bundleAllowedHosts(bundle, globalHosts), inherited };
}

/** The hosts a bundle's tools may reach: the global list and the bundle's own. */
export function bundleAllowedHosts(bundle: BundleHttp | undefined, globalHosts: readonly string[]): readonly string[] {
  return bundle?.allowedHosts?.length ? [...globalHosts, ...bundle.allowedHosts] : globalHosts;
}
