import { describe, expect, it } from 'vitest';
import { toCurl } from './curl.js';

describe('Copy as cURL', () => {
  it('renders arguments in place and leaves secrets as environment variables', () => {
    const command = toCurl(
      {
        method: 'POST',
        urlTemplate: 'https://api.example.com/cities/${city}',
        query: { units: 'metric', ids: '${ids}' },
        headers: { 'X-Key': '${secret.API_KEY}' },
        auth: { kind: 'bearer', token: '${TOKEN}' },
        body: { city: '${city}', key: 'k-${API_KEY}' },
      },
      { city: 'São Paulo', ids: [1, 2] },
      new Set(['city', 'ids']),
    );
    expect(command).toBe(
      'curl -X POST "https://api.example.com/cities/S%C3%A3o%20Paulo?units=metric&ids=1&ids=2" -H "X-Key: ${API_KEY}" -H "Authorization: Bearer ${TOKEN}" -H "Content-Type: application/json" --data-raw "{\\"city\\":\\"São Paulo\\",\\"key\\":\\"k-${API_KEY}\\"}"',
    );
  });

  it('writes list and object arguments in their OpenAPI styles, and cookies in one -b, as the tool sends them', () => {
    const command = toCurl(
      {
        method: 'GET',
        urlTemplate: 'https://api.example.com/items/${ids}',
        query: { created: '${created}', expand: '${expand}' },
        headers: { 'X-Filter': '${filter}' },
        cookies: { session: '${secret.SESSION}', tags: '${tags}' },
        styles: { ids: { style: 'matrix', explode: false, name: 'id' }, created: { style: 'deepObject', explode: true }, expand: { style: 'deepObject', explode: true }, filter: { style: 'simple', explode: true }, tags: { style: 'form', explode: false } },
      },
      { ids: [3, 4], created: { gt: 1 }, expand: ['a'], filter: { k: 'v' }, tags: ['x', 'y'] },
      new Set(['ids', 'created', 'expand', 'filter', 'tags']),
    );
    expect(command).toBe('curl -X GET "https://api.example.com/items/;id=3,4?created[gt]=1&expand[]=a" -H "X-Filter: k=v" -b "session=${SESSION}; tags=x,y"');
  });

  it('escapes what the shell would interpret in literal text', () => {
    expect(toCurl({ method: 'GET', urlTemplate: 'https://x.example/', headers: { 'X-A': 'a"b$c`d' } }, {}, new Set())).toBe(
      'curl -X GET "https://x.example/" -H "X-A: a\\"b\\$c\\`d"',
    );
  });

  it('renders a half-written draft (a cleared URL, a number where text goes) as far as it goes, without throwing', () => {
    const draft = { method: 'GET', headers: { 'X-A': 5 } } as unknown as Parameters<typeof toCurl>[0];
    expect(toCurl(draft, {}, new Set())).toBe('curl -X GET "" -H "X-A: "');
  });
});
