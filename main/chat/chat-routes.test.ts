import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORE_BUNDLE } from '../../testing/data/fixtures.js';
import { startInProcessHost, type InProcessHost } from '../../testing/harness/in-process-host.js';
import { createSseParser } from '../../renderer/api/sse.js';

let subject: InProcessHost;
beforeAll(async () => {
  subject = await startInProcessHost();
});
afterAll(async () => {
  await subject.stop();
});

const api = (method: string, route: string, body?: unknown) => subject.request(method, route, body);

describe('chat routes over the browser host', () => {
  it('creates a chat, streams a run as events, and answers approvals, all over HTTP', async () => {
    expect((await api('PUT', '/api/providers/script', { kind: 'scripted', displayName: 'Script', script: [
      { text: 'Let me ask.', toolCalls: [{ name: 'ask-user', args: { question: 'Tea or coffee?', choices: ['Tea', 'Coffee'] } }] },
      { text: 'Tea it is.' },
    ] })).status).toBe(200);
    const created = await api('POST', '/api/chats', {
      providerId: 'script',
      model: 'scripted',
      tools: { mode: 'auto', selected: [{ bundleID: CORE_BUNDLE, slug: 'ask-user', version: 'v1' }] },
    });
    expect(created.status).toBe(201);
    const chatId = created.body!.id as string;

    const controller = new AbortController();
    const stream = await fetch(`${subject.base}/api/events`, { headers: subject.authorization, signal: controller.signal });
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    const parse = createSseParser();
    const seen: { type: string; chatId?: string; event?: { type: string; reason?: string } }[] = [];
    const readUntil = async (done: () => boolean) => {
      while (!done()) {
        const { value } = await reader.read();
        for (const message of parse(value ?? '')) seen.push(JSON.parse(message.data) as (typeof seen)[number]);
      }
    };

    const sent = await api('POST', `/api/chats/${chatId}/messages`, { content: 'Something to drink?' });
    expect(sent.status).toBe(202);
    await readUntil(() => seen.some((event) => event.event?.type === 'ask-user'));
    expect(seen.filter((event) => event.type === 'chat').every((event) => event.chatId === chatId)).toBe(true);
    expect(seen.some((event) => event.event?.type === 'text-delta')).toBe(true);

    const callId = ((await api('GET', `/api/chats/${chatId}`)).body!.pending as { callId: string }[])[0]!.callId;
    expect((await api('POST', `/api/chats/${chatId}/approvals/${callId}`, { decision: 'allow' })).body).toMatchObject({ error: { code: 'conflict' } });
    expect((await api('POST', `/api/chats/${chatId}/answers/${callId}`, { answer: 'Tea' })).status).toBe(200);
    await readUntil(() => seen.some((event) => event.event?.type === 'finish' && event.event.reason === 'stop'));
    controller.abort();

    const listed = await api('GET', '/api/chats');
    expect(listed.body!.chats).toEqual([expect.objectContaining({ id: chatId, title: 'Something to drink?', status: 'idle', messageCount: 3 })]);
    expect((await api('DELETE', `/api/chats/${chatId}`)).status).toBe(204);
    expect((await api('GET', `/api/chats/${chatId}`)).status).toBe(404);
  });

  it('refuses malformed chat payloads with invalid_params', async () => {
    const bad = await api('POST', '/api/chats', { providerId: 'script', model: 'm', maxTurns: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { code: 'invalid_params' } });
    const badDecision = await api('POST', '/api/chats/019a0000-0000-7000-8000-000000000001/approvals/x', { decision: 'maybe' });
    expect(badDecision.status).toBe(400);
  });
});
