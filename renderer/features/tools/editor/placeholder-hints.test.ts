import { describe, expect, it } from 'vitest';
import { placeholderHints } from './placeholder-hints.js';

describe('placeholder hints', () => {
  const impl = { method: 'GET', urlTemplate: 'https://x.example/${word}', headers: { Authorization: 'Bearer ${secret.TOKEN}', 'X-City': '${city}' } };
  it('warn about placeholders that are neither arguments nor saved secrets', () => {
    const hints = placeholderHints(impl, { type: 'object', properties: { city: { type: 'string' } } }, new Set());
    expect(hints.map((hint) => hint.path)).toEqual(['/impl/urlTemplate', '/impl/headers/Authorization']);
    expect(hints[0]!.message).toContain('${word} is not an argument');
  });

  it('stay quiet once the secret exists or the argument is declared', () => {
    expect(placeholderHints(impl, { type: 'object', properties: { city: {}, word: {} } }, new Set(['TOKEN']))).toEqual([]);
  });
});
