import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { startTestCore, type TestCore } from '../../testing/harness/test-core.js';
import { createApiClient } from '../api/client.js';
import { CoreProvider } from '../api/context.js';
import type { Transport } from '../api/transport.js';
// Texts come from the catalogue, in English, as in the app (main.tsx loads it the same way).
import '../i18n/index.js';

/**
 * Renders a component the way the app does (react-query, the core's client)
 * against a real core in the same process, not a stand-in: what the
 * component asks for is what the core answers. For component tests, which
 * run in a DOM (happy-dom) under vitest.
 */
export async function renderWithCore(ui: ReactElement, core?: TestCore): Promise<RenderResult & { core: TestCore; user: UserEvent }> {
  const subject = core ?? (await startTestCore());
  const transport: Transport = {
    kind: 'http',
    invoke: (name, params) => subject.core.dispatcher.call(name, params ?? {}, { transport: 'internal' }),
    subscribe: (listener) => subject.core.events.subscribe(listener),
    onStatus: () => () => {},
    close: () => {},
  };
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <QueryClientProvider client={queryClient}>
      <CoreProvider value={{ api: createApiClient(transport), transport }}>{ui}</CoreProvider>
    </QueryClientProvider>,
  );
  return { ...view, core: subject, user: userEvent.setup() };
}
