import { afterEach } from 'vitest';
import type { ModelEvent, ModelProvider, ModelRequest } from '../../main/providers/model.js';
import type { FakeModelServer } from '../servers/fake-model-server.js';

/** Every event a provider streams for one request (a signal nobody aborts unless one is given). */
export async function collectEvents(provider: Pick<ModelProvider, 'stream'>, request: Omit<ModelRequest, 'signal'> & { signal?: AbortSignal }): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of provider.stream({ ...request, signal: request.signal ?? new AbortController().signal })) events.push(event);
  return events;
}

/** Fake model servers a test file starts, each closed after its test: `track(server)` hands it back. */
export function fakeServersClosedAfterEach(): { track: <T extends FakeModelServer>(server: T) => T } {
  const servers: FakeModelServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  return {
    track: (server) => {
      servers.push(server);
      return server;
    },
  };
}
