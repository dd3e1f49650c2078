import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolbeltError } from '../../shared/errors.js';
import type { CoreEvent } from '../../shared/events.js';
import { startInProcessHost, TEST_TOKEN, type InProcessHost } from '../../testing/harness/in-process-host.js';
import { createApiClient } from './client.js';
import { createHttpTransport } from './http-transport.js';
import type { ConnectionStatus } from './transport.js';

// The renderer's client over its real HTTP transport against the real host.
let subject: InProcessHost;
beforeAll(async () => {
  subject = await startInProcessHost({ heartbeatMs: 30 });
});
afterAll(() => subject.stop());

function waitFor<T>(register: (resolve: (value: T) => void) => void): Promise<T> {
  return new Promise((resolve) => register(resolve));
}

describe('renderer client over the browser host', () => {
  it('calls operations with types from the table', async () => {
    const transport = createHttpTransport(subject.base, TEST_TOKEN);
    try {
      const api = createApiClient(transport);
      const info = await api.app.info();
      expect(info.hostKind).toBe('browser');
      expect(info.dataDir).toBe(subject.dataDir);
      expect((await api.app.health()).status).toBe('ok');
    } finally {
      transport.close();
    }
  });

  it('turns an error body into a ToolbeltError with the same code', async () => {
    const transport = createHttpTransport(subject.base, 'wrong-token-wrong-token');
    try {
      const failure: unknown = await createApiClient(transport).app.info().catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(ToolbeltError);
      expect((failure as ToolbeltError).code).toBe('unauthorized');
    } finally {
      transport.close();
    }
  });

  it('reports "unavailable" when the host is gone', async () => {
    const transport = createHttpTransport('http://127.0.0.1:9', TEST_TOKEN);
    try {
      const failure = (await transport.invoke('app.health', {}).catch((error: unknown) => error)) as ToolbeltError;
      expect(failure.code).toBe('unavailable');
    } finally {
      transport.close();
    }
  });

  it('delivers pushed events and reports the stream as connected', async () => {
    const transport = createHttpTransport(subject.base, TEST_TOKEN);
    try {
      const connected = waitFor<ConnectionStatus>((resolve) =>
        transport.onStatus((status) => status === 'connected' && resolve(status)),
      );
      const event = waitFor<CoreEvent>((resolve) => transport.subscribe(resolve));
      expect(await connected).toBe('connected');
      expect((await event).type).toBe('app.heartbeat');
    } finally {
      transport.close();
    }
  });

  it('says "unauthorized" and stops retrying when the token is refused', async () => {
    const transport = createHttpTransport(subject.base, 'wrong-token-wrong-token');
    try {
      const status = waitFor<ConnectionStatus>((resolve) =>
        transport.onStatus((next) => next !== 'connecting' && resolve(next)),
      );
      expect(await status).toBe('unauthorized');
    } finally {
      transport.close();
    }
  });
});
