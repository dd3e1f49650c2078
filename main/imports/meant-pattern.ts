/**
 * API descriptions write patterns for engines that forgive needless escapes
 * (`^[a-zA-Z0-9_\-\:]+$`, DigitalOcean's tag names: `\:` means ":"), while a
 * tool's schema is read in Unicode mode, where escaping a character that
 * means nothing is an error. This reads such a pattern as its author meant
 * it: the backslash before a character that is neither a letter or digit
 * (`\d`, `\u…`), a character with a meaning (`\.`, `\[`), `/`, nor `-` in a
 * class, is dropped. A pattern that is not valid even so is left as written,
 * for the store to refuse with its reason.
 */
const MEANINGFUL = new Set('^$\\.*+?()[]{}|/'.split(''));

export function meantPattern(pattern: string): string {
  if (isUnicodePattern(pattern) || !pattern.includes('\\')) return pattern;
  let out = '';
  let inClass = false;
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char === '\\' && index + 1 < pattern.length) {
      const next = pattern[index + 1]!;
      const kept = /[A-Za-z0-9]/.test(next) || MEANINGFUL.has(next) || (next === '-' && inClass);
      out += kept ? char + next : next;
      index++;
      continue;
    }
    if (char === '[' && !inClass) inClass = true;
    else if (char === ']' && inClass) inClass = false;
    out += char;
  }
  return isUnicodePattern(out) ? out : pattern;
}

function isUnicodePattern(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}
