import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectError, expectOk, invokeHarness } from '../../testing/harness/invoke-harness.js';
import { json, startLoopbackServer } from '../../testing/harness/loopback-server.js';
import { manualClock } from '../../testing/harness/test-core.js';

const KEY = 'whsec_"quoted"_key';
const noteArgs = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as const;

describe('HMAC request signing', () => {
  it('signs the body GitHub-style (sha256=hex of the body) and a canonical string with a timestamp header in base64, as the server recomputes them', async () => {
    const server = await startLoopbackServer({ '/hooks': (_request, response) => json(response, 200, { ok: true }) });
    const clock = manualClock('2026-11-24T10:00:00.000Z');
    const subject = await invokeHarness([server.host], { clock });
    await subject.call('secrets.put', { name: 'SIGNING_KEY', value: KEY });
    await subject.putHttpTool(
      'github-style',
      { method: 'POST', urlTemplate: `${server.base}/hooks`, body: { text: '${text}' }, auth: { kind: 'hmac', secret: '${secret.SIGNING_KEY}', canonical: '{body}', header: 'X-Hub-Signature-256', prefix: 'sha256=', encoding: 'hex' } },
      { argSchema: noteArgs },
    );
    await subject.putHttpTool(
      'exchange-style',
      {
        method: 'POST',
        urlTemplate: `${server.base}/hooks`,
        query: { symbol: 'BTC-EUR' },
        body: { text: '${text}' },
        auth: { kind: 'hmac', secret: '${secret.SIGNING_KEY}', canonical: '{timestamp}\n{method}\n{path}\n{query}\n{bodyHash}', header: 'X-Signature', encoding: 'base64', timestampHeader: 'X-Timestamp' },
      },
      { argSchema: noteArgs },
    );
    const first = expectOk(await subject.invoke('github-style', { text: 'héllo {path}' }, { trace: true }));
    const sent = server.seen[0]!;
    const body = sent.body.toString();
    expect(sent.headers['x-hub-signature-256']).toBe(`sha256=${createHmac('sha256', KEY).update(body).digest('hex')}`);
    // The key is a secret: never in the trace.
    expect(JSON.stringify(first.trace)).not.toContain('quoted');

    expectOk(await subject.invoke('exchange-style', { text: 'buy' }));
    const signed = server.seen[1]!;
    const timestamp = String(Date.parse('2026-11-24T10:00:00.000Z') / 1000);
    expect(signed.headers['x-timestamp']).toBe(timestamp);
    const canonical = `${timestamp}\nPOST\n/hooks\nsymbol=BTC-EUR\n${createHash('sha256').update(signed.body).digest('hex')}`;
    expect(signed.headers['x-signature']).toBe(createHmac('sha256', KEY).update(canonical).digest('base64'));
  });

  it('refuses what it cannot sign and says which secret is missing', async () => {
    const server = await startLoopbackServer({ '/up': (_request, response) => json(response, 200, {}) });
    const subject = await invokeHarness([server.host]);
    const hmac = { kind: 'hmac', secret: '${secret.NOT_SET}', canonical: '{body}', header: 'X-Sig', encoding: 'hex' } as const;
    await subject.putHttpTool('unset', { method: 'POST', urlTemplate: `${server.base}/up`, body: { a: 1 }, auth: hmac });
    expect(expectError(await subject.invoke('unset'), 'missing_secret').message).toContain('NOT_SET');
    await subject.call('secrets.put', { name: 'NOT_SET', value: 'k' });
    await subject.putHttpTool('multipart', { method: 'POST', urlTemplate: `${server.base}/up`, multipart: true, body: { a: 'x' }, auth: hmac });
    expect(expectError(await subject.invoke('multipart'), 'invalid_request').message).toMatch(/multipart body cannot be signed/);
    expect(server.seen).toHaveLength(0);
  });
});
