/**
 * The renderer's Content-Security-Policy, sent by the app:// protocol and the
 * browser host alike. No remote origins at all: model and tool output is
 * untrusted and must never load code or beacons from the network. Inline
 * styles are allowed because Monaco injects its own. The one frame the
 * window may hold is the MCP App sandbox, on its own origin.
 */
export function rendererCsp(appSandboxOrigin?: string): string {
  return [...RENDERER_DIRECTIVES, `frame-src ${appSandboxOrigin ?? "'none'"}`].join('; ');
}

const RENDERER_DIRECTIVES = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
];

/** For API responses: nothing in them is ever meant to be rendered as a page. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";
