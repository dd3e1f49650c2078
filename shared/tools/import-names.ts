import { isSlug } from '../schemas/ids.js';
import { isToolbeltSecretName } from './secret-names.js';

/**
 * `getPetById`, `pets.list`, `GET /pets/{id}` → `get-pet-by-id`, `pets-list`,
 * `get-pets-id`: a valid slug, or null when nothing is left. Identifiers
 * split at their capitals; a title (`GitHub's API`) keeps its words whole.
 */
export function slugFromName(name: string, options: { splitCase: boolean } = { splitCase: true }): string | null {
  const text = name.normalize('NFC').replace(/['’]/g, '');
  // camelCase and PascalCase split into words; runs of capitals (HTTPServer) keep together.
  const cased = options.splitCase ? text.replace(/(\p{Ll}|\p{Nd})(\p{Lu})/gu, '$1-$2').replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1-$2') : text;
  const words = cased
    .toLowerCase()
    .split(/[^\p{L}\p{M}\p{Nd}]+/u)
    .filter(Boolean);
  // Whole words are dropped from the end first; one word longer than a slug is cut.
  while (words.length > 1 && [...words.join('-')].length > 64) words.pop();
  const slug = [...words.join('-')].slice(0, 64).join('');
  return isSlug(slug) ? slug : null;
}

/** The first of `base`, `base-2`, `base-3`… not in `taken` (kept within 64 characters); it is added to `taken`. */
export function uniqueName(base: string, taken: Set<string>, limit = 64, separator = '-'): string {
  let candidate = base;
  for (let counter = 2; taken.has(candidate); counter++) {
    const suffix = `${separator}${counter}`;
    candidate = [...base].slice(0, limit - suffix.length).join('') + suffix;
  }
  taken.add(candidate);
  return candidate;
}

/** The first of `base`, `base (2)`, `base (3)`… not in `taken`, as people number copies of a name (kept within `limit` characters). */
export function uniqueDisplayName(base: string, taken: ReadonlySet<string>, limit = 200): string {
  let candidate = base;
  for (let counter = 2; taken.has(candidate); counter++) {
    const suffix = ` (${counter})`;
    candidate = [...base].slice(0, limit - suffix.length).join('').trimEnd() + suffix;
  }
  return candidate;
}

/** A parameter name as a template argument name (letters, digits and `_`, not starting with a digit): `X-Request-ID` → `X_Request_ID`. */
export function argumentName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+(?=.)|_+$/g, '') || 'value';
  return /^[0-9]/.test(cleaned) ? `_${cleaned}` : cleaned;
}

/** A secret name from words: `Swagger Petstore` + `api key` → `SWAGGER_PETSTORE_API_KEY`. */
export function secretName(...words: string[]): string {
  const name = words
    .join('_')
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
  const valid = (/^[0-9]/.test(name) ? `_${name}` : name || 'API_KEY').slice(0, 128);
  // An API titled "Provider OpenAI" must not name a key Toolbelt keeps for itself (which no tool can read anyway).
  return isToolbeltSecretName(valid) ? `API_${valid}`.slice(0, 128) : valid;
}

/** A tag is one word of up to 64 characters without spaces or commas. */
export function tagName(name: string): string | null {
  const tag = name.trim().replace(/[\s,]+/g, '-').slice(0, 64);
  return tag || null;
}
