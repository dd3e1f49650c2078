/** Versions in the order people write them: v2 after v1, v10 after v9, 2026-02 after 2026-01. */
export function compareVersions(a: string, b: string): number {
  return VERSION_ORDER.compare(a, b);
}

// One collator for every comparison: localeCompare with options builds a new one per call, which made sorting a
// bundle's versions the larger part of saving a tool (npm run bench -- store).
const VERSION_ORDER = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** The latest version of each tool (by slug) among these: what a chat that reaches a whole bundle offers. */
export function latestOfEach<T extends { slug: string; version: string }>(tools: Iterable<T>): T[] {
  const latest = new Map<string, T>();
  for (const tool of tools) {
    const seen = latest.get(tool.slug);
    if (!seen || compareVersions(tool.version, seen.version) > 0) latest.set(tool.slug, tool);
  }
  return [...latest.values()];
}
