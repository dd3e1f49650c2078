import { query } from 'jsonpath-rfc9535';
import parseJsonPath, { type JsonPathQuery } from 'jsonpath-rfc9535/parser';
import { remembered } from './remembered.js';

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

/** A singular query as the names and indexes it walks; null for any other kind. */
function keysOf(parsed: JsonPathQuery): (string | number)[] | null {
  const keys: (string | number)[] = [];
  for (const segment of parsed.segments) {
    if (segment.type !== 'ChildSegment') return null;
    const node = segment.node;
    if (node.type === 'MemberNameShorthand') keys.push(node.value);
    else if (node.type === 'BracketedSelection' && node.selectors.length === 1 && (node.selectors[0]!.type === 'NameSelector' || node.selectors[0]!.type === 'IndexSelector')) keys.push(node.selectors[0]!.value);
    else return null;
  }
  return keys;
}

const compiled = remembered((expression: string) => {
  const parsed = parseJsonPath(expression);
  return { parsed, keys: keysOf(parsed) };
}, 2_000);

/**
 * `select` for an expression used again and again (a recipe's references,
 * run per step and per item): parsed once, and a singular query walked
 * directly (an object's own member by name, an array's item by index,
 * negative from the end, as RFC 9535 says) instead of being parsed anew.
 */
export function selectRepeated(value: unknown, expression: string): { found: boolean; value: unknown } {
  const entry = compiled(expression);
  if (!entry.keys) return select(value, expression, entry.parsed);
  let current = value;
  for (const key of entry.keys) {
    if (typeof key === 'number') {
      if (!Array.isArray(current)) return { found: false, value: null };
      const index = key < 0 ? current.length + key : key;
      if (index < 0 || index >= current.length) return { found: false, value: null };
      current = current[index] as unknown;
    } else {
      if (!current || typeof current !== 'object' || Array.isArray(current) || !Object.hasOwn(current, key)) return { found: false, value: null };
      current = (current as Record<string, unknown>)[key];
    }
  }
  return { found: true, value: current };
}
