import type { ServerResponse } from 'node:http';
import { vi } from 'vitest';
import type { ChatEvent } from '../../shared/events.js';
import type { Chat, ChatStreamEvent } from '../../shared/schemas/chat.js';
import type { ParamsOf } from '../../shared/operation.js';
import type { Operations } from '../../shared/operations/index.js';
import type { ProviderInput } from '../../shared/schemas/provider.js';
import { CORE_BUNDLE, newID } from '../data/fixtures.js';
import { json, startLoopbackServer, type SeenRequest } from './loopback-server.js';
import { startTestCore, type TestCore } from './test-core.js';
import { lookOnEvents } from '../cores/event-looks.js';

type ChatCreateParams = ParamsOf<Operations['chats.create']>;

/**
 * A real core with a bundle of HTTP tools against a loopback server:
 * `weather` answers, `broken` fails with 500, `slow` never answers, and
 * `météo` (a Unicode slug) answers like weather. Chat events are recorded.
 */
export async function startChatHarness(options: { weatherRoute?: (request: SeenRequest, response: ServerResponse, index: number) => unknown } = {}) {
  const server = await startLoopbackServer({
    '/weather': options.weatherRoute ?? ((request, response) => json(response, 200, { city: new URL(request.url, 'http://x').searchParams.get('city'), temp: 21 })),
    '/broken': (_request, response) => json(response, 500, { error: 'database on fire' }),
    '/slow': () => new Promise(() => undefined),
  });
  let test: TestCore = await startTestCore({ providerRetries: 0 });
  const bundleID = newID();
  const events: ChatEvent[] = [];
  // Copied as they come, as the transports serialize them: the engine goes on changing its own objects.
  const listen = (core: TestCore) => core.core.events.subscribe((event) => event.type === 'chat' && events.push(structuredClone(event)));
  listen(test);
  await test.call('settings.patch', { allowedHosts: [server.host] });
  await test.call('secrets.put', { name: 'API_TOKEN', value: 'tok-very-secret-42' });
  await test.call('bundles.put', { bundleID, slug: 'test', displayName: 'Test tools' });
  const httpTool = (slug: string, path: string, displayName: string) =>
    test.call('tools.put', {
      bundleID,
      toolSlug: slug,
      version: 'v1',
      tool: {
        displayName,
        description: `${displayName} for a city`,
        type: 'http',
        argSchema: { type: 'object', properties: { city: { type: 'string', minLength: 2 } }, required: ['city'], additionalProperties: false },
        impl: { method: 'GET', urlTemplate: `${server.base}${path}`, query: { city: '${city}' }, headers: { Authorization: 'Bearer ${secret.API_TOKEN}' }, timeoutMs: 60_000 },
      },
    });
  await httpTool('weather', '/weather', 'Weather');
  await httpTool('broken', '/broken', 'Broken');
  await httpTool('slow', '/slow', 'Slow');
  await httpTool('météo', '/weather', 'Météo');

  const tool = (slug: string, extra: { as?: string; requiresApproval?: boolean; denied?: boolean; pinned?: boolean; resultLimit?: number } = {}) => ({ bundleID, slug, version: 'v1', ...extra });
  const coreTool = (slug: string) => ({ bundleID: CORE_BUNDLE, slug, version: 'v1' });

  const harness = {
    server,
    bundleID,
    events,
    tool,
    coreTool,
    get call() {
      return test.call;
    },
    get failure() {
      return test.failure;
    },
    get core() {
      return test.core;
    },
    get dataDir() {
      return test.dataDir;
    },
    async provider(id: string, input: ProviderInput) {
      await test.call('providers.put', { id, ...input });
    },
    async chat(params: Omit<ChatCreateParams, 'model'> & { model?: string }) {
      return test.call('chats.create', { model: 'fake-model', ...params });
    },
    /** The chat's events so far, as the stream delivered them. */
    streamOf(chatId: string): ChatStreamEvent[] {
      return events.filter((event) => event.chatId === chatId).map((event) => event.event);
    },
    /**
     * Waits until the chat is no longer running (finished or waiting for the person) and its run has let it go (its
     * last save on disk): looked at again on each of its events (a run's end is a save, which says `chats.changed`),
     * never on a timer; fails after `timeoutMs`.
     */
    settled(chatId: string, timeoutMs = 10_000): Promise<Chat> {
      const core = test;
      return new Promise<Chat>((resolve, reject) => {
        let over = false;
        const end = (settle: () => void) => {
          over = true;
          stop();
          clearTimeout(deadline);
          settle();
        };
        const stop = lookOnEvents(
          core.core.events,
          (event) => (event.type === 'chat' && event.chatId === chatId) || (event.type === 'chats.changed' && event.chatIds.includes(chatId)),
          async () => {
            if (over) return;
            const chat = await core.call('chats.get', { chatId });
            if (chat.status === 'running' || core.core.chats.isRunning(chatId)) return;
            await core.core.chats.released(chatId);
            if (!over) end(() => resolve(chat));
          },
          // A look's failure ends the wait with it: nothing is left running unwatched.
          (error) => end(() => reject(error instanceof Error ? error : new Error(String(error)))),
        );
        const deadline = setTimeout(() => end(() => reject(new Error(`chat ${chatId} still running after ${timeoutMs} ms`))), timeoutMs);
      });
    },
    until(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
      return vi.waitFor(
        () => {
          if (!predicate()) throw new Error('condition not met in time');
        },
        { timeout: timeoutMs, interval: 5 },
      );
    },
    /** Closes the core and opens a new one on the same data folder, as a restart would. */
    async restart(whileStopped?: () => Promise<void>) {
      test = await test.reopen(whileStopped);
      listen(test);
    },
  };
  return harness;
}

export type ChatHarness = Awaited<ReturnType<typeof startChatHarness>>;
