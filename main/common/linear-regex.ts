import type { RegExpEngine } from 'ajv/dist/types/index.js';
import { RE2JS } from 're2js';

/**
 * Patterns that people and servers supply (argSchema `pattern`,
 * `patternProperties`, a `/regex/` extractExpr) run on text that models and
 * servers supply. A backtracking engine can take exponential time on them
 * (`^(a+)+$` against "aaaa…!" froze a host for minutes), so they run on
 * re2js, a pure-JS RE2: linear in the input, always. RE2 lacks
 * backreferences and lookaround; such patterns are refused when a tool is
 * saved, with a sentence saying so.
 */
export type LinearRegex = RE2JS;


/**
 * ECMAScript escapes RE2 spells differently: `\uXXXX` and `\u{X…}` become
 * `\x{…}`. Everything else is the same in both dialects for the patterns
 * JSON Schema allows.
 */
function toRe2Syntax(pattern: string): string {
  let out = '';
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char !== '\\') {
      out += char;
      continue;
    }
    const next = pattern[index + 1];
    if (next === 'u') {
      const braced = /^\{([0-9A-Fa-f]{1,6})\}/.exec(pattern.slice(index + 2));
      const plain = /^[0-9A-Fa-f]{4}/.exec(pattern.slice(index + 2));
      if (braced) {
        out += `\\x{${braced[1]}}`;
        index += 1 + braced[0].length;
        continue;
      }
      if (plain) {
        out += `\\x{${plain[0]}}`;
        index += 1 + plain[0].length;
        continue;
      }
    }
    out += char + (next ?? '');
    index++;
  }
  return out;
}

const compiledPatterns = new Map<string, LinearRegex>();
const COMPILED_KEPT = 2_000;

/** Compiles a pattern with JavaScript flags (i, m, s; g, u, y and d change nothing for a test or a first match). */
export function compileLinear(pattern: string, flags = ''): LinearRegex {
  const key = `${flags}/${pattern}`;
  let compiled = compiledPatterns.get(key);
  if (!compiled) {
    let re2Flags = 0;
    if (flags.includes('i')) re2Flags |= RE2JS.CASE_INSENSITIVE;
    if (flags.includes('m')) re2Flags |= RE2JS.MULTILINE;
    if (flags.includes('s')) re2Flags |= RE2JS.DOTALL;
    compiled = RE2JS.compile(toRe2Syntax(pattern), re2Flags);
    if (compiledPatterns.size >= COMPILED_KEPT) compiledPatterns.clear();
    compiledPatterns.set(key, compiled);
  }
  return compiled;
}

/**
 * Why a pattern cannot be used, in a sentence, or null when it can: it must
 * be a valid JavaScript regular expression (what JSON Schema means by one)
 * and run on the linear-time engine.
 */
export function linearRegexProblem(pattern: string, flags = 'u'): string | null {
  try {
    new RegExp(pattern, flags);
  } catch (error) {
    return `is not a valid regular expression: ${(error as Error).message}`;
  }
  try {
    compileLinear(pattern, flags);
    return null;
  } catch (error) {
    const detail = (error as Error).message.replace(/^error parsing regexp: /, '');
    if (/\\(?:[1-9]|k<)/.test(pattern)) return 'uses a backreference (\\1, \\k<name>), which the linear-time pattern engine (RE2) does not have; rewrite the pattern without it';
    if (/\(\?<?[=!]/.test(pattern)) return 'uses lookahead or lookbehind ((?=…), (?!…), (?<=…), (?<!…)), which the linear-time pattern engine (RE2) does not have; rewrite the pattern without it';
    return `cannot run on the linear-time pattern engine (RE2): ${detail}; rewrite the pattern`;
  }
}

/** The first match of a pattern in a text: the whole match, then each group (null when it took no part), as RegExp.exec. */
export function firstMatch(regex: LinearRegex, text: string): (string | null)[] | null {
  const matcher = regex.matcher(text);
  if (!matcher.find()) return null;
  return Array.from({ length: matcher.groupCount() + 1 }, (_, group) => matcher.group(group));
}

/** ajv's hook for `pattern` and `patternProperties` in schemas people write. */
export const linearRegExpEngine: RegExpEngine = Object.assign(
  (pattern: string) => {
    const compiled = compileLinear(pattern);
    // ajv keys its cache of compiled patterns on toString().
    return { test: (text: string) => compiled.test(text), toString: () => `re2:${pattern}` };
  },
  { code: 're2js' },
);
