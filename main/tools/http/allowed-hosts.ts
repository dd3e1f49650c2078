/**
 * Whether a URL's host is on the allowlist. Entries: `api.example.com` (any
 * port), `localhost:8080` (that port only), `*.example.com` (any subdomain,
 * not the bare domain), IP addresses in either form.
 */
export function isHostAllowed(url: URL, allowlist: readonly string[]): boolean {
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return allowlist.some((entry) => {
    const { pattern, entryPort } = splitEntry(entry.toLowerCase());
    if (entryPort !== null && entryPort !== port) return false;
    if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1;
    return host === pattern;
  });
}

function splitEntry(entry: string): { pattern: string; entryPort: string | null } {
  const bracketed = /^(\[[^\]]+\])(?::(\d+))?$/.exec(entry);
  if (bracketed) return { pattern: bracketed[1]!, entryPort: bracketed[2] ?? null };
  const colon = entry.lastIndexOf(':');
  if (colon === -1) return { pattern: entry, entryPort: null };
  return { pattern: entry.slice(0, colon), entryPort: entry.slice(colon + 1) };
}

/** The allowlist entry that would allow this URL: its host, with the port when it is not the default. */
export function allowlistEntryFor(url: URL): string {
  return url.host.toLowerCase();
}
