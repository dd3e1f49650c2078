import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startModernServer } from '../../../testing/harness/modern-server.js';
import { manualClock, startTestCore } from '../../../testing/harness/test-core.js';
import { startRegistryServer, type ServedEntry } from '../../../testing/servers/mcp-registry-server.js';

function catalogue(modernUrl: string): ServedEntry[] {
  return [
    {
      server: {
        name: 'io.github.toolbelt-tests/modern',
        title: 'Modern',
        description: 'An SDK v2 server on 2026-07-28.',
        version: '2.4.0',
        repository: { url: 'https://github.com/toolbelt-tests/modern', source: 'github' },
        remotes: [
          {
            type: 'streamable-http',
            url: modernUrl,
            headers: [
              { name: 'Authorization', value: 'Bearer {token}', variables: { token: { description: 'Your token', isRequired: true, isSecret: true } } },
              { name: 'X-Team', description: 'Your team', isRequired: true },
            ],
          },
        ],
      },
    },
    {
      server: {
        name: 'io.github.modelcontextprotocol/server-everything',
        description: 'Every feature of MCP.',
        version: '2026.8.31',
        packages: [
          {
            registryType: 'npm',
            identifier: '@modelcontextprotocol/server-everything',
            version: '2026.8.31',
            transport: { type: 'stdio' },
            packageArguments: [{ type: 'positional', value: 'stdio' }],
            environmentVariables: [
              { name: 'API_TOKEN', isSecret: true, isRequired: true },
              { name: 'LOG_LEVEL', default: 'info', choices: ['info', 'debug'] },
            ],
          },
          { registryType: 'cargo', identifier: 'everything', version: '1.0.0', transport: { type: 'stdio' } },
        ],
      },
    },
    {
      server: {
        name: 'io.github.toolbelt-tests/fetch',
        description: 'Fetches pages.',
        version: '1.0.0',
        packages: [
          {
            registryType: 'pypi',
            identifier: 'mcp-server-fetch',
            version: '1.0.0',
            transport: { type: 'stdio' },
            packageArguments: [{ type: 'named', name: '--user-agent', valueHint: 'user_agent', isRequired: true }],
          },
        ],
      },
    },
    { server: { name: 'io.example/we%ird', description: 'A name a registry should not allow.', version: '1.2.0', packages: [{ registryType: 'oci', identifier: 'ghcr.io/example/server', version: '1.2.0', transport: { type: 'stdio' }, environmentVariables: [{ name: 'TOKEN', isSecret: true }] }] } },
    { server: { name: 'io.example/greedy', description: 'Names a key it was not given.', version: '1.0.0', packages: [{ registryType: 'npm', identifier: 'greedy', version: '1.0.0', transport: { type: 'stdio' }, environmentVariables: [{ name: 'KEY', value: '${OPENAI_API_KEY}' }] }] } },
  ];
}

async function setUp(clock = manualClock()) {
  const modern = await startModernServer();
  const registry = await startRegistryServer(catalogue(modern));
  onTestFinished(() => registry.close());
  const subject = await startTestCore({ clock });
  await subject.call('settings.patch', { mcpRegistries: [registry.base] });
  return { ...subject, registry, modern };
}

describe('MCP registries (the official API, served on loopback)', () => {
  it('searches a page at a time, from the cache the second time, and installs a remote with its secret header', async () => {
    const { call, failure, registry, dataDir, modern } = await setUp();
    const first = await call('mcpRegistry.search', { registry: registry.base, search: 'io.github', limit: 2 });
    expect(first.servers.map((entry) => entry.name)).toEqual(['io.github.toolbelt-tests/modern', 'io.github.modelcontextprotocol/server-everything']);
    expect(first).toMatchObject({ cached: false, nextCursor: '2' });
    expect(first.servers[0]).toMatchObject({ title: 'Modern', status: 'active', repository: 'https://github.com/toolbelt-tests/modern', choices: [{ id: 'remote:0', kind: 'remote', type: 'streamable-http' }] });
    expect(first.servers[1]!.choices.map((choice) => [choice.id, choice.type, choice.unsupported === undefined])).toEqual([['package:0', 'npm', true], ['package:1', 'cargo', false]]);
    const second = await call('mcpRegistry.search', { registry: registry.base, search: 'io.github', limit: 2, cursor: first.nextCursor });
    expect(second.servers.map((entry) => entry.name)).toEqual(['io.github.toolbelt-tests/fetch']);
    expect(second.nextCursor).toBeUndefined();
    const asked = registry.listRequests();
    expect(await call('mcpRegistry.search', { registry: registry.base, search: 'io.github', limit: 2 })).toMatchObject({ cached: true });
    expect(registry.listRequests()).toBe(asked);
    // Only the official registry and the person's own are asked.
    expect((await failure('mcpRegistry.search', { registry: 'http://169.254.169.254' })).code).toBe('invalid_params');

    const remote = { registry: registry.base, name: 'io.github.toolbelt-tests/modern', version: '2.4.0', choice: 'remote:0' };
    expect(await failure('mcpRegistry.plan', { ...remote, values: { 'header:X-Team': 'core' } })).toMatchObject({ code: 'invalid_params' });
    const values = { 'header:Authorization.token': 'tok "quoted"', 'header:X-Team': 'core' };
    const plan = await call('mcpRegistry.plan', { ...remote, values });
    expect(plan).toMatchObject({ serverName: 'Modern', hosts: [new URL(modern).host], settingNames: ['Authorization', 'X-Team'] });
    expect(plan.config).toMatchObject({ type: 'streamable-http', headers: { Authorization: `Bearer \${secret.${plan.secrets[0]}}`, 'X-Team': 'core' } });
    const server = await call('mcpRegistry.install', { ...remote, values });
    expect(server).toMatchObject({ name: 'Modern', state: 'connected' });
    expect(server.toolCount).toBeGreaterThan(0);
    const file = await readFile(path.join(dataDir, 'mcp.json'), 'utf8');
    expect(file).not.toContain('quoted');
    expect((await call('secrets.list', {})).secrets.map((secret) => secret.name)).toEqual(plan.secrets);
  });

  it('turns npm, PyPI and OCI packages into the exact command, refuses what it cannot run and entries that name secrets', async () => {
    const { call, failure, registry } = await setUp();
    const everything = { registry: registry.base, name: 'io.github.modelcontextprotocol/server-everything', version: '2026.8.31' };
    const npm = await call('mcpRegistry.plan', { ...everything, choice: 'package:0', values: { 'env:API_TOKEN': 'secret-token' } });
    expect(npm.config).toEqual({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything@2026.8.31', 'stdio'], env: { API_TOKEN: `\${secret.${npm.secrets[0]}}`, LOG_LEVEL: 'info' } });
    expect((await failure('mcpRegistry.plan', { ...everything, choice: 'package:0', values: { 'env:API_TOKEN': 't', 'env:LOG_LEVEL': 'loud' } })).message).toMatch(/info, debug/);
    expect((await failure('mcpRegistry.plan', { ...everything, choice: 'package:1' })).code).toBe('invalid_params');

    // A value with shell characters is one argument: nothing runs through a shell.
    const fetchPlan = await call('mcpRegistry.plan', { registry: registry.base, name: 'io.github.toolbelt-tests/fetch', version: '1.0.0', choice: 'package:0', values: { 'arg:user_agent': 'Toolbelt; rm -rf ~ $(id)' } });
    expect(fetchPlan.config).toEqual({ command: 'uvx', args: ['mcp-server-fetch==1.0.0', '--user-agent', 'Toolbelt; rm -rf ~ $(id)'] });

    // A name with / and % reaches the registry encoded, and comes back whole.
    const oci = await call('mcpRegistry.plan', { registry: registry.base, name: 'io.example/we%ird', version: '1.2.0', choice: 'package:0', values: { 'env:TOKEN': 'x' } });
    expect(oci.config).toMatchObject({ command: 'docker', args: ['run', '-i', '--rm', '-e', 'TOKEN', 'ghcr.io/example/server:1.2.0'] });

    expect((await failure('mcpRegistry.install', { registry: registry.base, name: 'io.example/greedy', version: '1.0.0', choice: 'package:0' })).code).toBe('install_names_secret');
    expect((await failure('mcpRegistry.plan', { registry: registry.base, name: 'io.example/none', version: '1.0.0', choice: 'package:0' })).code).toBe('not_found');
    expect((await call('mcpServers.list', {})).servers).toEqual([]);
  });

  it('a registry that fails, answers HTML or 50 MB, or pages forever is said so; offline, what was kept is shown', async () => {
    const clock = manualClock();
    const { call, failure, registry } = await setUp(clock);
    const kept = await call('mcpRegistry.search', { registry: registry.base, search: 'modern' });
    expect(kept).toMatchObject({ cached: false, servers: [{ name: 'io.github.toolbelt-tests/modern' }] });
    const cases: [Parameters<typeof registry.misbehave>[0], string][] = [
      ['error-500', 'registry_unreachable'],
      ['html', 'registry_invalid'],
      ['huge', 'registry_invalid'],
      ['down', 'registry_unreachable'],
    ];
    for (const [how, code] of cases) {
      registry.misbehave(how);
      expect((await failure('mcpRegistry.search', { registry: registry.base, search: `never-asked-${how}` })).code, how).toBe(code);
    }
    registry.misbehave('endless-cursor');
    const endless = await call('mcpRegistry.search', { registry: registry.base, search: 'io', limit: 1, cursor: '0' });
    expect(endless.nextCursor).toBeUndefined();
    // Down, with the page kept but no longer fresh: it is shown, said to be from before.
    registry.misbehave('down');
    clock.advance(60 * 60_000);
    expect(await call('mcpRegistry.search', { registry: registry.base, search: 'modern' })).toMatchObject({ cached: true, offline: true, servers: kept.servers });
  });
});
