import { query } from 'jsonpath-rfc9535';
import parseJsonPath, { type JsonPathQuery } from 'jsonpath-rfc9535/parser';
import { compileLinear, firstMatch } from '../common/linear-regex.js';
import { InvokeFailure } from './invoke-error.js';

type JsonValue = Parameters<typeof query>[0];

/**
 * A singular query (only names and indexes, RFC 9535 §2.3.3) yields one
 * value; any other yields the list of what it selected, so the shape of
 * the result does not depend on how many items the response happened to have.
 */
function isSingular(parsed: JsonPathQuery): boolean {
  return parsed.segments.every((segment) => {
    if (segment.type !== 'ChildSegment') return false;
    const node = segment.node;
    if (node.type === 'MemberNameShorthand') return true;
    if (node.type !== 'BracketedSelection' || node.selectors.length !== 1) return false;
    const kind = node.selectors[0]!.type;
    return kind === 'NameSelector' || kind === 'IndexSelector';
  });
}

/**
 * Applies `extractExpr` to a response: JSONPath over the decoded JSON, or a
 * regular expression `/pattern/flags` over the raw text (the first capture
 * group, else the whole match). `found: false` when it selects nothing.
 */
export function extract(expression: string, decoded: unknown, rawText: string): { found: boolean; value: unknown } {
  if (expression.startsWith('$')) {
    let parsed: JsonPathQuery;
    try {
      parsed = parseJsonPath(expression);
    } catch (error) {
      throw new InvokeFailure('extract_failed', `extractExpr ${expression} is not valid JSONPath: ${(error as Error).message}`);
    }
    const nodes = query(decoded as JsonValue, expression);
    if (isSingular(parsed)) return nodes.length === 0 ? { found: false, value: null } : { found: true, value: nodes[0] };
    return { found: nodes.length > 0, value: nodes };
  }
  const match = /^\/(.*)\/([dgimsuvy]*)$/s.exec(expression);
  if (!match) throw new InvokeFailure('extract_failed', `extractExpr ${expression} is neither JSONPath nor /regex/flags.`);
  let regex;
  try {
    regex = compileLinear(match[1]!, match[2]);
  } catch (error) {
    throw new InvokeFailure('extract_failed', `extractExpr ${expression} cannot run: ${(error as Error).message}.`);
  }
  const found = firstMatch(regex, rawText);
  if (!found) return { found: false, value: null };
  return { found: true, value: found[1] ?? found[0] };
}
