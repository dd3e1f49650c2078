import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../testing/cores/spawned-host.js';
import { startTestCore, type TestCore } from '../../testing/harness/test-core.js';
import { mcpBundleID } from './identity.js';
import { LIST_LIMITS } from './list-pages.js';

/** The SDK's own server, misbehaving as `mode` says (testing/servers/hostile-mcp-server.mjs). */
const hostile = (mode: string) => ({ command: process.execPath, args: [path.join(PROJECT_ROOT, 'testing/servers/hostile-mcp-server.mjs')], env: { HOSTILE_MODE: mode } });

/** Resolves once the core says the store changed and `holds` is true then. */
function whenStoreChanged(core: TestCore, holds: () => Promise<boolean>): Promise<void> {
  return new Promise((resolve, reject) => {
    const stop = core.core.events.subscribe((event) => {
      if (event.type !== 'store.changed') return;
      holds().then(
        (done) => {
          if (done) {
            stop();
            resolve();
          }
        },
        (error: unknown) => reject(error instanceof Error ? error : new Error(String(error))),
      );
    });
  });
}

describe('MCP servers that misbehave are bounded', () => {
  it('a JSON-RPC error the server answers a call with is said as the server’s error (mcp_error, with its code), not the network’s', async () => {
    const { call } = await startTestCore();
    const view = await call('mcpServers.put', { name: 'erring', config: hostile('rpc-error') });
    const result = await call('tools.invoke', { bundleID: view.bundleID, toolSlug: 'lists', version: 'mcp', args: {} });
    expect(result).toMatchObject({ ok: false, error: { code: 'mcp_error', message: 'lists failed on the MCP server "erring" (JSON-RPC error -32603): the database is gone' } });
  });

  it('a server that hands out a new cursor forever is read up to the page limit', async () => {
    const { call } = await startTestCore();
    const view = await call('mcpServers.put', { name: 'endless', config: hostile('endless-cursor') });
    expect(view).toMatchObject({ state: 'connected', toolCount: LIST_LIMITS.pages });
  });

  it('five thousand tools/list_changed notices at once are one listing, then one more after a gap', async () => {
    const subject = await startTestCore();
    const toolNames = async () => (await subject.call('tools.list', { includeDisabled: true, bundleIDs: [mcpBundleID('flood')] })).tools.map((tool) => tool.slug);
    const settled = whenStoreChanged(subject, async () => (await toolNames()).includes('listed-3'));
    const view = await subject.call('mcpServers.put', { name: 'flood', config: hostile('flood') });
    expect(view.state).toBe('connected');
    await settled;
    // The server counts the lists it was asked for: the first, one when the notices came, one after the gap.
    const counted = await subject.call('tools.invoke', { bundleID: view.bundleID, toolSlug: 'lists', version: 'mcp', args: {} });
    expect(counted).toMatchObject({ ok: true, value: '3' });
  });

  it('a server writing megabytes to stderr without a line end keeps a bounded tail, and says its last words', async () => {
    const { call } = await startTestCore({ mcpConnectTimeoutMs: 1_500 });
    const view = await call('mcpServers.put', { name: 'noisy', config: hostile('stderr') });
    expect(view.state).toBe('failed');
    expect(view.stderr).toEqual([expect.stringMatching(/^…x{1993}gave up$/) as unknown]);
    expect(view.error?.message).toMatch(/It wrote: …x+gave up$/);
    expect(view.error!.message.length).toBeLessThan(2_300);
  });

  it('a server that answers the handshake but never tools/list fails within the start limit, and says so', async () => {
    const { call } = await startTestCore({ mcpConnectTimeoutMs: 1_500 });
    const view = await call('mcpServers.put', { name: 'silent', config: hostile('silent-list') });
    expect(view).toMatchObject({ state: 'failed', error: { code: 'mcp_no_answer', message: expect.stringContaining('did not give its list of tools within 2 s') as unknown } });
  });
});

describe('MCP tools whose input schema cannot be compiled', () => {
  it('a remote $ref is refused as unusable with a sentence, not a 500; a schema 2,000 levels deep is left out, saying why', async () => {
    const { call, failure } = await startTestCore();
    const view = await call('mcpServers.put', { name: 'schemas', config: hostile('hostile-schema') });
    expect(view.state).toBe('connected');
    expect(view.leftOut).toEqual([{ name: 'deep', why: expect.stringContaining('nests deeper than 64 levels') as unknown }]);
    for (const toolSlug of ['remote-ref']) {
      const refused = await failure('tools.invoke', { bundleID: view.bundleID, toolSlug, version: 'mcp', args: {} });
      expect([refused.code, refused.message]).toEqual(['tool_unavailable', expect.stringMatching(new RegExp(`^${toolSlug} cannot be used: its input schema cannot be checked \\(.+\\)\\. Fix the tool's schema`)) as unknown]);
    }
  });
});
