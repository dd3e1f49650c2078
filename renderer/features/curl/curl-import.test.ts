import { describe, expect, it } from 'vitest';
import { toCurl } from './curl.js';
import { argumentCandidates, draftFromCurl } from './curl-draft.js';
import { CurlImportError, parseCurl, shellWords } from './curl-import.js';
import type { HttpImpl } from '../../../shared/schemas/http-impl.js';

describe('cURL import: reading the command', () => {
  // Examples from curl's own manual (curl.1), as people copy them.
  it('reads the manual’s examples: -d, --data-urlencode, -H, -u, -F, --json, -G', () => {
    expect(parseCurl('curl -d "name=curl" -d "tool=cmdline" https://example.com')).toMatchObject({ method: 'POST', url: 'https://example.com', body: { kind: 'form', fields: [['name', 'curl'], ['tool', 'cmdline']] } });
    expect(parseCurl('curl --data-urlencode "name=I am Daniel" https://example.com').body).toEqual({ kind: 'form', fields: [['name', 'I am Daniel']] });
    expect(parseCurl('curl -H "X-First-Name: Joe" https://example.com').headers).toEqual([['X-First-Name', 'Joe']]);
    expect(parseCurl('curl -H "X-Custom-Header;" https://example.com').headers).toEqual([['X-Custom-Header', '']]);
    expect(parseCurl('curl -u user:secret https://example.com').user).toBe('user:secret');
    const form = parseCurl('curl -F "name=daniel;type=text/foo" -F "web=@index.html;type=text/html" example.com');
    expect(form).toMatchObject({ method: 'POST', url: 'http://example.com', body: { kind: 'multipart', fields: [['name', 'daniel'], ['web', '']] } });
    expect(form.warnings.join(' ')).toMatch(/file for form field web cannot be carried/);
    expect(parseCurl(`curl --json '{"drink": "coffe"}' https://example.com`)).toMatchObject({
      method: 'POST',
      headers: [['Content-Type', 'application/json'], ['Accept', 'application/json']],
      body: { kind: 'json', value: { drink: 'coffe' } },
    });
    expect(parseCurl('curl -G -d "tool=curl" -d "age=old" https://example.com/search')).toMatchObject({ method: 'GET', query: [['tool', 'curl'], ['age', 'old']] });
    expect(parseCurl('curl -X DELETE https://example.com/users/42').method).toBe('DELETE');
  });

  it('splits words as bash does (quotes, $\'…\', line continuations) and as Windows cmd does (^ and "")', () => {
    expect(shellWords(`curl 'https://x.test/a b' -H "X-Say: \\"hi\\" \\$5" -d $'line\\nnext' \\\n  --compressed`)).toEqual(['curl', 'https://x.test/a b', '-H', 'X-Say: "hi" $5', '-d', 'line\nnext', '--compressed']);
    const windows = 'curl ^"https://x.test/api?q=1^&r=2^" ^\n  -H ^"Accept: application/json^" ^\n  --data-raw ^"^{^\\^"a^\\^":1^}^"';
    expect(parseCurl(windows)).toMatchObject({ url: 'https://x.test/api', query: [['q', '1'], ['r', '2']], headers: [['Accept', 'application/json']], body: { kind: 'json', value: { a: 1 } } });
    expect(parseCurl('curl -sSL -XPOST --url=https://x.test/p --max-time 2.5 --retry 2')).toMatchObject({ method: 'POST', url: 'https://x.test/p', timeoutMs: 2500, retries: 2 });
  });

  it('says what is wrong with a command it cannot read', () => {
    const failure = (command: string) => {
      try {
        parseCurl(command);
        return null;
      } catch (error) {
        return error instanceof CurlImportError ? error.message : `not a CurlImportError: ${String(error)}`;
      }
    };
    expect(failure('wget https://x.test')).toBe('Paste a command that starts with curl.');
    expect(failure('curl -H')).toBe('-H needs a value after it.');
    expect(failure("curl 'https://x.test")).toBe('A single quote is not closed.');
    expect(failure('curl -X HEAD https://x.test')).toMatch(/HEAD requests cannot be HTTP tools/);
    expect(failure('curl -s')).toBe('The command has no URL.');
    // A file to upload or a file of options is not a URL, and no scheme but http(s) becomes a tool.
    expect(failure('curl -T ./secrets.txt https://x.test/upload')).toMatch(/^-T uploads a file/);
    expect(failure('curl --upload-file=./a https://x.test')).toMatch(/^--upload-file uploads a file/);
    expect(failure('curl -K ~/.curlrc')).toMatch(/^-K reads more options from a file/);
    expect(failure('curl -sK opts.txt')).toMatch(/^-K reads more options/);
    expect(failure('curl file:///etc/passwd')).toBe('file: URLs cannot be HTTP tools; a tool sends http:// or https:// requests.');
    expect(failure('curl FTP://x.test/a')).toMatch(/^FTP: URLs cannot be HTTP tools/);
    expect(parseCurl('curl localhost:8080/health').url).toBe('http://localhost:8080/health');
    expect(parseCurl('curl --frobnicate https://x.test').warnings).toEqual(['The option --frobnicate is not part of a tool, so it was left out.']);
  });
});

describe('cURL import: the tool it becomes', () => {
  it('moves credentials to secrets (Authorization, API keys, -u) and keeps $VARs as secrets of that name', () => {
    const parsed = parseCurl(`curl "https://api.example.com/v1/search?q=coffee&api_key=abc123" -H "Authorization: Bearer sk-live-1" -H "X-Trace: $TRACE_ID" -H 'X-Api-Key: k"1'`);
    const draft = draftFromCurl(parsed, new Set());
    expect(draft.impl).toEqual({
      method: 'GET',
      urlTemplate: 'https://api.example.com/v1/search',
      query: { q: 'coffee', api_key: '${secret.EXAMPLE_API_KEY}' },
      auth: { kind: 'bearer', token: '${secret.EXAMPLE_TOKEN}' },
      headers: { 'X-Trace': '${secret.TRACE_ID}', 'X-Api-Key': '${secret.EXAMPLE_X_API_KEY}' },
    });
    expect(draft.secrets).toEqual([
      { name: 'EXAMPLE_API_KEY', value: 'abc123', found: 'query parameter api_key' },
      { name: 'EXAMPLE_TOKEN', value: 'sk-live-1', found: 'the Authorization header' },
      { name: 'TRACE_ID', found: 'header X-Trace' },
      { name: 'EXAMPLE_X_API_KEY', value: 'k"1', found: 'header X-Api-Key' },
    ]);
    expect(JSON.stringify(draft.impl)).not.toMatch(/abc123|sk-live|k\\"1/);
    const basic = draftFromCurl(parseCurl('curl -u daniel:s3cret https://example.com/me'), new Set());
    expect(basic.impl.auth).toEqual({ kind: 'basic', username: 'daniel', password: '${secret.EXAMPLE_PASSWORD}' });
  });

  it('keeps the key of Stripe’s `-u sk_test_…:` as a secret (the user name, with no password), and a $VAR in the URL path as its secret', () => {
    const stripe = draftFromCurl(parseCurl('curl https://api.stripe.com/v1/customers -u sk_test_4eC39HqLyjWDarjtT1zdp7dc: -d email="ada@example.com"'), new Set());
    expect(stripe.impl.auth).toEqual({ kind: 'basic', username: '${secret.STRIPE_KEY}', password: '' });
    expect(stripe.secrets).toContainEqual({ name: 'STRIPE_KEY', value: 'sk_test_4eC39HqLyjWDarjtT1zdp7dc', found: 'the user name of -u' });
    expect(JSON.stringify(stripe.impl)).not.toContain('sk_test_4eC39');

    const twilio = draftFromCurl(parseCurl('curl -X POST "https://api.twilio.com/2010-04-01/Accounts/$TWILIO_ACCOUNT_SID/Messages.json" -u "$TWILIO_ACCOUNT_SID:$TWILIO_AUTH_TOKEN" --data-urlencode "Body=Hi"'), new Set());
    expect(twilio.impl.urlTemplate).toBe('https://api.twilio.com/2010-04-01/Accounts/${secret.TWILIO_ACCOUNT_SID}/Messages.json');
    expect(twilio.impl.auth).toEqual({ kind: 'basic', username: '${secret.TWILIO_ACCOUNT_SID}', password: '${secret.TWILIO_AUTH_TOKEN}' });
    expect(twilio.secrets.map((secret) => secret.name).sort()).toEqual(['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN']);
  });

  it('reads a command that asks for an event stream (Accept: text/event-stream) as a streaming tool', () => {
    const streaming = draftFromCurl(parseCurl(`curl -N https://api.example.com/v1/logs/tail -H 'Accept: text/event-stream'`), new Set());
    expect(streaming.impl.responseEncoding).toBe('sse');
    expect(draftFromCurl(parseCurl('curl https://api.example.com/v1/logs'), new Set()).impl.responseEncoding).toBeUndefined();
  });

  it('turns the values a person picks into arguments: path IDs, query parameters, body fields', () => {
    const parsed = parseCurl(`curl -X PATCH "https://api.example.com/users/42/notes?limit=10&sort=new" --json '{"title":"Hi","pinned":true,"tags":["a"]}'`);
    const candidates = argumentCandidates(parsed);
    expect(candidates.map((candidate) => [candidate.id, candidate.name, candidate.value])).toEqual([
      ['path:2', 'users_id', '42'],
      ['query:0', 'limit', '10'],
      ['query:1', 'sort', 'new'],
      ['body:title', 'title', 'Hi'],
      ['body:pinned', 'pinned', true],
      ['body:tags', 'tags', ['a']],
    ]);
    const draft = draftFromCurl(parsed, new Set(['path:2', 'query:0', 'body:title', 'body:pinned']));
    expect(draft.impl).toMatchObject({
      method: 'PATCH',
      urlTemplate: 'https://api.example.com/users/${users_id}/notes',
      query: { limit: '${limit}', sort: 'new' },
      body: { title: '${title}', pinned: '${pinned}', tags: ['a'] },
    });
    expect(draft.argSchema).toEqual({
      type: 'object',
      properties: {
        users_id: { type: 'string', examples: ['42'], description: 'Path segment users_id' },
        limit: { type: 'string', examples: ['10'], description: 'Query parameter limit' },
        title: { type: 'string', examples: ['Hi'], description: 'Field title' },
        pinned: { type: 'boolean', examples: [true], description: 'Field pinned' },
      },
      required: ['users_id', 'limit', 'title', 'pinned'],
    });
  });

  it('round-trips with Copy as cURL: the tester’s command reads back as the same request', () => {
    const impl: HttpImpl = {
      method: 'POST',
      urlTemplate: 'https://api.example.com/v2/cities/${city}',
      query: { units: 'metric', days: '${days}' },
      headers: { 'X-Client': 'toolbelt', 'X-Api-Key': '${secret.WEATHER_KEY}' },
      body: { city: '${city}', note: 'it\'s "quoted" $x' },
    };
    const argNames = new Set(['city', 'days']);
    const command = toCurl(impl, { city: 'São Paulo', days: 3 }, argNames);
    const parsed = parseCurl(command);
    expect(parsed).toMatchObject({
      method: 'POST',
      url: 'https://api.example.com/v2/cities/S%C3%A3o%20Paulo',
      query: [['units', 'metric'], ['days', '3']],
      body: { kind: 'json', value: { city: 'São Paulo', note: 'it\'s "quoted" $x' } },
    });
    const draft = draftFromCurl(parsed, new Set());
    // The secret comes back as the same secret, by name, never a value.
    expect(draft.impl.headers).toMatchObject({ 'X-Client': 'toolbelt', 'X-Api-Key': '${secret.WEATHER_KEY}' });
    expect(draft.secrets).toEqual([{ name: 'WEATHER_KEY', found: 'header X-Api-Key' }]);
  });
});
