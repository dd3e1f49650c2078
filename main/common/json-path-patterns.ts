import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import parseJsonPath from 'jsonpath-rfc9535/parser';
import { compileLinear } from './linear-regex.js';

/** `$…` must parse as RFC 9535 JSONPath; the message says where it does not. */
export function jsonPathProblem(expression: string): string | null {
  try {
    parseJsonPath(expression);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

interface FunctionExtension {
  declaration: (context: unknown, value: unknown, pattern: unknown) => boolean;
}

let linearPatterns: Promise<void> | undefined;

/**
 * RFC 9535's `match()` and `search()` run patterns that come from a recipe, an
 * extraction or the data itself (`match(@.a, @.b)`). jsonpath-rfc9535 runs
 * them on JavaScript's backtracking RegExp, where `search(@, '^(a+)+$')`
 * over 27 "a"s and a "!" held the host 7 s, doubling per character. The
 * library takes no function table of its own, so its two declarations are
 * replaced, once, by the same functions on the linear-time engine (re2js).
 * Its package exports neither module, so they are loaded by file, the very
 * instances its query() uses; a later version that moves them makes this
 * throw at start, and json-path-patterns.test.ts fails, rather than run patterns
 * unbounded in silence.
 */
export function runJsonPathPatternsLinearly(): Promise<void> {
  linearPatterns ??= (async () => {
    const packageRoot = path.dirname(createRequire(import.meta.url).resolve('jsonpath-rfc9535/package.json'));
    for (const [name, whole] of [['match', true], ['search', false]] as const) {
      const module = (await import(pathToFileURL(path.join(packageRoot, 'dist', 'esm', 'core', 'functions', `${name}.js`)).href)) as { default?: FunctionExtension };
      const extension = module.default;
      if (typeof extension?.declaration !== 'function' || extension.declaration.name !== name) {
        throw new Error(`jsonpath-rfc9535 no longer declares ${name}() where Toolbelt replaces it; its patterns would run on a backtracking engine.`);
      }
      extension.declaration = (_context, value, pattern) => typeof value === 'string' && typeof pattern === 'string' && iRegexpTest(pattern, value, whole);
    }
  })();
  return linearPatterns;
}

/** An I-Regexp (RFC 9485) on the linear-time engine: `.` is any character but a line break; a pattern RE2 cannot read matches nothing, as RFC 9535 says of an invalid one. */
function iRegexpTest(pattern: string, value: string, whole: boolean): boolean {
  const translated = dotWithoutLineBreaks(pattern);
  let compiled;
  try {
    compiled = compileLinear(whole ? `^(?:${translated})$` : translated, 'u');
  } catch {
    return false;
  }
  return compiled.test(value);
}

/** `.` outside a character class becomes `[^\n\r]` (RE2's `.` would match `\r`). */
function dotWithoutLineBreaks(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char === '\\') {
      out += char + (pattern[index + 1] ?? '');
      index++;
    } else if (inClass) {
      if (char === ']') inClass = false;
      out += char;
    } else if (char === '[') {
      inClass = true;
      out += char;
    } else out += char === '.' ? '[^\\n\\r]' : char;
  }
  return out;
}
