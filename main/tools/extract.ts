import { parseQuery, select } from '../../shared/tools/json-path.js';
import { compileLinear, firstMatch } from '../common/linear-regex.js';
import { InvokeFailure } from './invoke-error.js';

/**
 * Applies `extractExpr` to a response: JSONPath over the decoded JSON, or a
 * regular expression `/pattern/flags` over the raw text (the first capture
 * group, else the whole match). `found: false` when it selects nothing.
 */
export function extract(expression: string, decoded: unknown, rawText: string): { found: boolean; value: unknown } {
  if (expression.startsWith('$')) {
    let parsed;
    try {
      parsed = parseQuery(expression);
    } catch (error) {
      throw new InvokeFailure('extract_failed', `extractExpr ${expression} is not valid JSONPath: ${(error as Error).message}`);
    }
    return select(decoded, expression, parsed);
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
