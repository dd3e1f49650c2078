import { performance } from 'node:perf_hooks';
import OpenAI from 'openai';
import type { FakeReply } from '../main/testing/fake-model-server.js';
import { openAiTextReply, startFakeOpenAi } from '../main/testing/fake-openai.js';
import { startBenchCore } from './bench-core.js';
import { percentile, report } from './stats.js';

const SHORT = 200;
const LONG = 2_200;
const RUNS = 25;

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

  for (let i = 0; i < 5; i++) {
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
  await close();
  await server.close();
  return met.every(Boolean);
}
