/**
 * How large a tool's argSchema or outputSchema may be, whoever wrote it: a
 * person, a script's signature, an import, a ZIP or an MCP server. A schema
 * is compiled to check every call and sent to the model with every request,
 * so one past these limits could stop the host (a 257 MB schema did) and
 * would not fit any model's context anyway. GitHub's 1,200 imported tools
 * reach at most 64 KB, 21 levels and 3,200 nodes.
 */
export const SCHEMA_LIMITS = { maxChars: 512 * 1024, maxDepth: 64, maxNodes: 50_000 } as const;

/** The limits as a person reads them. */
export const SCHEMA_LIMITS_WORDS = `${SCHEMA_LIMITS.maxChars / 1024} KB, ${SCHEMA_LIMITS.maxDepth} levels and ${SCHEMA_LIMITS.maxNodes.toLocaleString('en')} parts`;

/**
 * What is over the limits in a schema, as a clause ("is larger than 512 KB"),
 * or null. Walks without recursion and stops as soon as a limit is passed,
 * so a schema built to be huge costs no more than the limit to refuse.
 */
export function schemaSizeProblem(schema: unknown, limits: { maxChars: number; maxDepth: number; maxNodes: number } = SCHEMA_LIMITS): string | null {
  let chars = 0;
  let nodes = 0;
  const values: unknown[] = [schema];
  const depths: number[] = [0];
  while (values.length > 0) {
    const node = values.pop();
    const depth = depths.pop()!;
    nodes += 1;
    if (nodes > limits.maxNodes) return `has more than ${limits.maxNodes.toLocaleString('en')} parts`;
    if (typeof node === 'string') chars += node.length + 2;
    else if (node === null || typeof node !== 'object') chars += 5;
    else {
      if (depth >= limits.maxDepth) return `nests deeper than ${limits.maxDepth} levels`;
      chars += 2;
      const isArray = Array.isArray(node);
      for (const key in node) {
        if (!Object.hasOwn(node, key)) continue;
        if (!isArray) chars += key.length + 4;
        values.push((node as Record<string, unknown>)[key]);
        depths.push(depth + 1);
      }
    }
    if (chars > limits.maxChars) return `is larger than ${Math.round(limits.maxChars / 1024)} KB as JSON`;
  }
  return null;
}
