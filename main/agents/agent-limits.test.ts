import { afterEach, describe, expect, it } from 'vitest';
import { mcpBundleID } from '../mcp-client/identity.js';
import type { FakeModelServer } from '../../testing/servers/fake-model-server.js';
import { newID } from '../../testing/data/fixtures.js';
import { freePort } from '../../testing/cores/free-port.js';
import { openAiToolCallReply, startFakeOpenAi } from '../../testing/servers/fake-openai.js';
import { startTestCore, type TestCore } from '../../testing/harness/test-core.js';
import { RUN_BUDGET } from '../tools/run-lineage.js';

const servers: FakeModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const taskSchema = { type: 'object', properties: { task: { type: 'string' } }, required: ['task'] };

/** A model that answers every request by calling `name` again. */
async function relentlessModel(core: TestCore, name: string, replies: number) {
  const model = await startFakeOpenAi(Array.from({ length: replies }, (_, index) => openAiToolCallReply([{ id: `c${index}`, name, args: ['{"task":"again"}'] }])));
  servers.push(model);
  await core.call('providers.put', { id: 'inner', kind: 'openai', displayName: 'Inner', baseURL: `${model.url}/v1`, apiKey: 'sk-inner' });
  return model;
}

function putAgent(core: TestCore, bundleID: string, slug: string, tools: unknown[], maxTurns = 20) {
  return core.call('tools.put', { bundleID, toolSlug: slug, version: 'v1', tool: { displayName: slug, type: 'agent', argSchema: taskSchema, impl: { providerId: 'inner', model: 'm', tools, maxTurns } } as never });
}

describe('agents are bounded', () => {
  it('an agent cannot be put among its own tools', async () => {
    const core = await startTestCore();
    const bundleID = newID();
    await core.call('bundles.put', { bundleID, slug: 'agents', displayName: 'Agents' });
    const refused = await core.failure('tools.put', { bundleID, toolSlug: 'narcissus', version: 'v1', tool: { displayName: 'Narcissus', type: 'agent', argSchema: taskSchema, impl: { providerId: 'inner', model: 'm', tools: [{ bundleID, slug: 'narcissus', version: 'v2' }] } } });
    expect([refused.code, refused.message]).toEqual(['invalid_params', 'Narcissus cannot be among its own tools: an agent is never offered to itself. Take it out of its tools.']);
    expect(refused.details).toEqual({ issues: [{ path: '/impl/tools/0', message: 'is the agent itself' }] });
  });

  it('a run stops at its budget of model requests, across the agents it nests', async () => {
    const core = await startTestCore({ providerRetries: 0 });
    const model = await relentlessModel(core, 'next', RUN_BUDGET.modelRequests + 100);
    const bundleID = newID();
    await core.call('bundles.put', { bundleID, slug: 'agents', displayName: 'Agents' });
    // Three agents, each calling the next under the name "next" on every turn of twenty: 8,420 requests unbounded.
    await putAgent(core, bundleID, 'third', []);
    await putAgent(core, bundleID, 'second', [{ bundleID, slug: 'third', version: 'v1', as: 'next' }]);
    await putAgent(core, bundleID, 'first', [{ bundleID, slug: 'second', version: 'v1', as: 'next' }]);
    const result = await core.call('tools.invoke', { bundleID, toolSlug: 'first', version: 'v1', args: { task: 'go' } });
    expect(result).toMatchObject({ ok: false, error: { code: 'agent_budget', message: expect.stringContaining('has used all its model requests (200, across every agent in it)') as unknown } });
    expect(model.requests).toHaveLength(RUN_BUDGET.modelRequests);
  });

  it('an agent shared over Toolbelt’s MCP server and added back as a server counts its depth across the hop', async () => {
    const core = await startTestCore({ providerRetries: 0, mcpShare: { listen: true } });
    const model = await relentlessModel(core, 'looper', 100);
    const bundleID = newID();
    await core.call('bundles.put', { bundleID, slug: 'agents', displayName: 'Agents' });
    // Its only tool is itself, as the MCP server that is this same Toolbelt offers it.
    await putAgent(core, bundleID, 'looper', [{ bundleID: mcpBundleID('self'), slug: 'looper', version: 'mcp' }], 2);
    const port = await freePort();
    await core.call('mcpShare.configure', { enabled: true, port });
    await core.call('mcpShare.shareBundle', { bundleID, shared: true });
    const { url, token } = await core.call('mcpShare.connection', {});
    // An agent says nothing of what it changes, so its tool would ask first; the person trusts their own Toolbelt.
    expect(await core.call('mcpServers.put', { name: 'self', config: { url, headers: { Authorization: `Bearer ${token}` }, askFirst: 'never' } })).toMatchObject({ state: 'connected', toolCount: 1 });

    const result = await core.call('tools.invoke', { bundleID, toolSlug: 'looper', version: 'v1', args: { task: 'go' } });
    expect(result.ok).toBe(false);
    // Levels one to three each ran their two turns; the fourth was refused across the hop: 2 + 4 + 8 model requests.
    expect(model.requests).toHaveLength(14);
    expect(JSON.stringify(model.requests.at(-1)!.body)).toContain('agents may call agents only 3 deep, and this call would be level 4');
  });
});
