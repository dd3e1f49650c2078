import { performance } from 'node:perf_hooks';
import OpenAI from 'openai';
import type { FakeReply } from '../testing/servers/fake-model-server.js';
import { openAiTextReply, startFakeOpenAi } from '../testing/servers/fake-openai.js';
import { startBenchCore } from './bench-core.js';
import { percentile, report, sized } from './stats.js';

const SHORT = 200;
const LONG = 2_200;
// 25 runs left the per-token figure moving ±10 % between runs on a 2-vCPU VM; 80 hold it within a few per cent.
const RUNS = sized(80, 3);

/**
 * Cost per streamed token from the fake server's socket to the event
 * consumer: the engine (core, provider adapter, event bus) against the bare
 * openai SDK reading the same stream. Per token is the slope between a short
 * and a long answer, so what a run costs once (files, lookups) drops out; the
 * whole run is reported beside it.
 */
export async function benchChat(): Promise<boolean> {
  const replies = new Map<number, FakeReply>([SHORT, LONG].map((tokens) => [tokens, openAiTextReply(Array.from({ length: tokens }, (_, i) => `tok${i} `))]));
  const server = await startFakeOpenAi();
  const { core, call, close } = await startBenchCore('chat', { providerRetries: 0 });
  await call('providers.put', { id: 'bench', kind: 'openai', displayName: 'Bench', baseURL: `${server.url}/v1`, apiKey: 'sk-bench' });
  const client = new OpenAI({ apiKey: 'sk-bench', baseURL: `${server.url}/v1`, maxRetries: 0 });

  let deltas = 0;
  let finished: (() => void) | null = null;
  core.events.subscribe((event) => {
    if (event.type !== 'chat') return;
    if (event.event.type === 'text-delta') deltas++;
    if (event.event.type === 'finish') finished?.();
  });

  const throughEngine = async (tokens: number) => {
    server.replies.push(replies.get(tokens)!);
    const chat = (await call('chats.create', { providerId: 'bench', model: 'fake' })) as { id: string };
    deltas = 0;
    const done = new Promise<void>((resolve) => (finished = resolve));
    const started = performance.now();
    await call('chats.send', { chatId: chat.id, content: 'go' });
    await done;
    const elapsed = performance.now() - started;
    if (deltas !== tokens) throw new Error(`expected ${tokens} deltas, got ${deltas}`);
    await call('chats.delete', { chatId: chat.id });
    return elapsed;
  };
  const bareSdk = async (tokens: number) => {
    server.replies.push(replies.get(tokens)!);
    const started = performance.now();
    const stream = await client.chat.completions.create({ model: 'fake', messages: [{ role: 'user', content: 'go' }], stream: true, stream_options: { include_usage: true } });
    let seen = 0;
    let text = '';
    for await (const chunk of stream) {
      const piece = chunk.choices[0]?.delta?.content;
      if (piece) {
        seen++;
        text += piece;
      }
    }
    const elapsed = performance.now() - started;
    if (seen !== tokens || text.length === 0) throw new Error(`expected ${tokens} tokens, got ${seen}`);
    return elapsed;
  };

  for (let i = 0; i < sized(5); i++) {
    await throughEngine(LONG);
    await bareSdk(LONG);
  }
  const samples = { engineShort: [] as number[], engineLong: [] as number[], bareShort: [] as number[], bareLong: [] as number[] };
  for (let i = 0; i < RUNS; i++) {
    samples.engineShort.push(await throughEngine(SHORT));
    samples.bareShort.push(await bareSdk(SHORT));
    samples.engineLong.push(await throughEngine(LONG));
    samples.bareLong.push(await bareSdk(LONG));
  }
  const median = (values: number[]) => percentile(values, 50);
  const perToken = (long: number[], short: number[]) => (median(long) - median(short)) / (LONG - SHORT);
  const met = [
    report({
      section: 'chat',
      name: 'engine cost per streamed token',
      ours: perToken(samples.engineLong, samples.engineShort),
      limit: perToken(samples.bareLong, samples.bareShort),
      limitName: 'bare openai SDK, same stream',
      goalRatio: 1.2,
    }),
    report({
      section: 'chat',
      name: `whole run, ${LONG} tokens, median`,
      ours: median(samples.engineLong),
      limit: median(samples.bareLong),
      limitName: 'bare openai SDK, same stream',
    }),
  ];
  const agentOk = await benchSubAgent(call, server, client);
  await close();
  await server.close();
  return met.every(Boolean) && agentOk;
}

const AGENT_ROUNDS = sized(60, 3);
const AGENT_BUNDLE = '01a20000-0000-7000-8000-00000000a9e7';

/**
 * An agent tool's call against the model call inside it: the same streamed
 * answer read by the bare openai SDK. What is left is the agent's own cost
 * (the dispatcher, the invoker, the agent's loop and its provider adapter).
 */
async function benchSubAgent(call: (operation: string, params: unknown) => Promise<unknown>, server: Awaited<ReturnType<typeof startFakeOpenAi>>, client: OpenAI): Promise<boolean> {
  const answer = openAiTextReply(Array.from({ length: SHORT }, (_, i) => `tok${i} `));
  await call('bundles.put', { bundleID: AGENT_BUNDLE, slug: 'agents', displayName: 'Agents' });
  await call('tools.put', {
    bundleID: AGENT_BUNDLE,
    toolSlug: 'helper',
    version: 'v1',
    tool: {
      displayName: 'Helper',
      type: 'agent',
      argSchema: { type: 'object', properties: { task: { type: 'string' } }, required: ['task'] },
      impl: { providerId: 'bench', model: 'fake', tools: [], maxTurns: 2 },
    },
  });
  const throughAgent = async () => {
    server.replies.push(answer);
    const started = performance.now();
    const result = (await call('tools.invoke', { bundleID: AGENT_BUNDLE, toolSlug: 'helper', version: 'v1', args: { task: 'go' } })) as { ok: boolean };
    if (!result.ok) throw new Error('the agent call failed');
    return performance.now() - started;
  };
  const modelAlone = async () => {
    server.replies.push(answer);
    const started = performance.now();
    const stream = await client.chat.completions.create({ model: 'fake', messages: [{ role: 'user', content: 'go' }], stream: true, stream_options: { include_usage: true } });
    for await (const chunk of stream) void chunk;
    return performance.now() - started;
  };
  for (let i = 0; i < sized(10); i++) {
    await throughAgent();
    await modelAlone();
  }
  const agent: number[] = [];
  const alone: number[] = [];
  for (let i = 0; i < AGENT_ROUNDS; i++) {
    agent.push(await throughAgent());
    alone.push(await modelAlone());
  }
  const ours = percentile(agent, 50);
  const limit = percentile(alone, 50);
  report({ section: 'chat', name: `sub-agent call, ${SHORT}-token answer, median`, ours, limit, limitName: 'the model call alone (bare SDK)' });
  const overhead = ours - limit;
  const ok = overhead <= 5;
  console.log(`chat    sub-agent overhead over its model call, median: ${overhead.toFixed(2)} ms   goal ≤ 5 ms: ${ok ? 'met' : 'MISSED'}`);
  return ok;
}
