import { describe, expect, it } from 'vitest';
import { sharingCore } from '../../testing/harness/mcp-share-harness.js';
import { rawRequest } from '../../testing/harness/raw-request.js';
import { hostileValues, seededRandom } from '../../testing/data/schema-sample.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261128);
/** Every method a client may send Toolbelt's server, some it does not have, and notices. */
const METHODS = ['initialize', 'ping', 'tools/list', 'tools/call', 'resources/list', 'resources/read', 'resources/templates/list', 'prompts/list', 'prompts/get', 'logging/setLevel', 'completion/complete', 'server/discover', 'subscriptions/listen', 'tasks/get', 'sampling/createMessage', 'notifications/initialized', 'notifications/cancelled', 'notifications/roots/list_changed', '__proto__', 'x'.repeat(10_000)];
const PER_METHOD = 40;

describe('Toolbelt’s MCP server, fuzzed over JSON-RPC (security round four)', () => {
  it('answers every hostile message with a status that is not 500, none hangs, and goes on serving its tools', { timeout: 300_000 }, async () => {
    const { url, token } = await sharingCore();
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', Authorization: `Bearer ${token}` };
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } };
    const opened = await rawRequest(url, { method: 'POST', headers, body: JSON.stringify(initialize) });
    expect(opened.status).toBe(200);
    const session = { 'Mcp-Session-Id': String(opened.headers['mcp-session-id']), 'MCP-Protocol-Version': '2025-06-18' };
    const random = seededRandom(SEED);
    const hostile = hostileValues();
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const statuses = new Map<number, number>();
    const send = async (body: string, withSession: boolean) => {
      const answer = await rawRequest(url, { method: 'POST', headers: { ...headers, ...(withSession ? session : {}) }, body });
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      expect(answer.status, body.slice(0, 200)).toBeLessThan(500);
      return answer;
    };
    for (const method of METHODS) {
      for (let round = 0; round < PER_METHOD; round++) {
        const roll = random();
        const message: Record<string, unknown> = { jsonrpc: roll < 0.05 ? pick(hostile) : '2.0', method, ...(roll < 0.9 ? { id: roll < 0.1 ? pick(hostile) : round } : {}) };
        if (roll < 0.5) message.params = pick(hostile);
        else if (roll < 0.8) message.params = { name: roll < 0.65 ? 'forecast' : pick(hostile), arguments: roll < 0.7 ? { city: pick(hostile) } : pick(hostile), uri: pick(hostile), _meta: pick(hostile) };
        let body: string;
        try {
          body = roll > 0.95 ? JSON.stringify([message, message]) : JSON.stringify(message);
        } catch {
          continue; // a value JSON cannot say (a cycle) is not a message a client can send
        }
        await send(body, roll > 0.02);
      }
    }
    for (const garbage of ['', 'null', '[]', '"text"', '{', '{"jsonrpc":"2.0"}', `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${'['.repeat(5_000)}${']'.repeat(5_000)}}`]) await send(garbage, true);
    // Still serving: the tools are listed and a call runs.
    const listed = await send(JSON.stringify({ jsonrpc: '2.0', id: 'last', method: 'tools/list', params: {} }), true);
    expect(listed.body).toContain('forecast');
    expect([...statuses.keys()].every((status) => status < 500)).toBe(true);
  });
});
