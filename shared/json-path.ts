import { query } from 'jsonpath-rfc9535';
import parseJsonPath, { type JsonPathQuery } from 'jsonpath-rfc9535/parser';

type JsonValue = Parameters<typeof query>[0];

/**
 * A singular query (only names and indexes, RFC 9535 §2.3.3) yields one
 * value; any other yields the list of what it selected, so the shape of
 * the result does not depend on how many items a value happened to have.
 */
export function isSingular(parsed: JsonPathQuery): boolean {
  return parsed.segments.every((segment) => {
    if (segment.type !== 'ChildSegment') return false;
    const node = segment.node;
    if (node.type === 'MemberNameShorthand') return true;
    if (node.type !== 'BracketedSelection' || node.selectors.length !== 1) return false;
    const kind = node.selectors[0]!.type;
    return kind === 'NameSelector' || kind === 'IndexSelector';
  });
}

/** Parses a JSONPath query; throws the parser's error for one that is not. */
export const parseQuery = (expression: string): JsonPathQuery => parseJsonPath(expression);

/**
 * What `expression` selects in `value`: the one value of a singular query
 * (`found: false` when it selects nothing), or the list of every selected
 * value of any other (found when the list is not empty).
 */
export function select(value: unknown, expression: string, parsed: JsonPathQuery = parseJsonPath(expression)): { found: boolean; value: unknown } {
  const nodes = query(value as JsonValue, expression);
  if (isSingular(parsed)) return nodes.length === 0 ? { found: false, value: null } : { found: true, value: nodes[0] };
  return { found: nodes.length > 0, value: nodes };
}
