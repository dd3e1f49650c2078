import type { HttpImpl } from '../../shared/schemas/http-impl.js';
import type { InvokeResult } from '../../shared/schemas/invocation.js';
import type { ToolInput } from '../../shared/schemas/tool.js';
import type { CoreOptions } from '../../main/core/create-core.js';
import { newID } from '../data/fixtures.js';
import { startTestCore, type TestCore } from './test-core.js';

export interface InvokeHarness extends TestCore {
  bundleID: string;
  putHttpTool(slug: string, impl: Partial<HttpImpl> & Pick<HttpImpl, 'urlTemplate'>, extra?: Partial<ToolInput>): Promise<void>;
  invoke(slug: string, args?: Record<string, unknown>, extra?: { trace?: boolean; timeoutMs?: number }): Promise<InvokeResult>;
}

/** A core with one bundle, the given hosts allowed, and instant retries unless asked otherwise. */
export async function invokeHarness(allowedHosts: string[], options: Partial<CoreOptions> = {}): Promise<InvokeHarness> {
  const subject = await startTestCore({ sleep: async () => {}, ...options });
  await subject.call('settings.patch', { allowedHosts });
  const bundleID = newID();
  await subject.call('bundles.put', { bundleID, slug: 'test', displayName: 'Test' });
  return {
    ...subject,
    bundleID,
    async putHttpTool(slug, impl, extra = {}) {
      await subject.call('tools.put', {
        bundleID,
        toolSlug: slug,
        version: 'v1',
        tool: {
          displayName: slug,
          type: 'http',
          argSchema: { type: 'object', properties: {} },
          ...extra,
          impl: { method: 'GET', ...impl },
        },
      });
    },
    invoke: (slug, args = {}, extra = {}) => subject.call('tools.invoke', { bundleID, toolSlug: slug, version: 'v1', args, ...extra }),
  };
}

export function expectOk(result: InvokeResult): Extract<InvokeResult, { ok: true }> {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result;
}

export function expectError(result: InvokeResult, code: string): Extract<InvokeResult, { ok: false }>['error'] {
  if (result.ok) throw new Error(`expected ${code}, got ok with ${JSON.stringify(result.value)}`);
  if (result.error.code !== code) throw new Error(`expected ${code}, got ${result.error.code}: ${result.error.message}`);
  return result.error;
}

/** Starts a call, cancels it at its first progress (the tool is under way), and gives its result. */
export async function cancelAtFirstProgress(core: TestCore['core'], invoke: (signal: AbortSignal) => Promise<InvokeResult>): Promise<InvokeResult> {
  const controller = new AbortController();
  const started = new Promise<void>((resolve) => core.events.subscribe((event) => event.type === 'tools.progress' && resolve()));
  const running = invoke(controller.signal);
  await started;
  controller.abort();
  return running;
}
