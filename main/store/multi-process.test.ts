import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { httpTool, newID } from '../../testing/data/fixtures.js';
import { spawnHost, type SpawnedHost } from '../../testing/cores/spawned-host.js';
import { startTestCore } from '../../testing/harness/test-core.js';
import { tempDirForTest } from '../../testing/harness/test-temp-dir.js';

async function startHosts(dataDir: string, count: number): Promise<SpawnedHost[]> {
  const hosts = await Promise.all(Array.from({ length: count }, () => spawnHost(['--data-dir', dataDir, '--log-level', 'error'])));
  onTestFinished(async () => {
    for (const host of hosts) if (host.child.exitCode === null) host.child.kill('SIGKILL');
    await Promise.all(hosts.map((host) => host.exited));
  });
  return hosts;
}

function put(host: SpawnedHost, route: string, body: unknown): Promise<Response> {
  return fetch(`${host.base}/api/tools/bundles/${route}`, {
    method: 'PUT',
    headers: { Authorization: `Bearer ${host.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

// Four hosts start at once on two cores (~6 s here, longer on a busy CI machine): what is tested is what they write, not how fast.
describe('several Toolbelt processes on one data folder', { timeout: 60_000 }, () => {
  it('never both succeed in creating the same <slug, version>', async () => {
    const dataDir = await tempDirForTest();
    const hosts = await startHosts(dataDir, 4);
    const bundleID = newID();
    expect((await put(hosts[0]!, bundleID, { slug: 'shared', displayName: 'Shared' })).status).toBe(201);

    for (let round = 0; round < 6; round++) {
      const responses = await Promise.all(
        hosts.map((host, index) => put(host, `${bundleID}/tools/race-${round}/version/v1`, httpTool({ displayName: `From host ${index}` }))),
      );
      const statuses = responses.map((response) => response.status).sort();
      expect(statuses, `round ${round}`).toEqual([201, 409, 409, 409]);
    }

    const files = await readdir(path.join(dataDir, 'bundles', bundleID, 'tools'));
    expect(files.filter((file) => file.endsWith('.json'))).toHaveLength(6);
    const fresh = await startTestCore({ dataDir });
    const listed = await fresh.call('tools.list', { bundleIDs: [bundleID], includeDisabled: true });
    expect(listed.tools.map((tool) => tool.status)).toEqual(Array(6).fill('valid'));
  });

  it('a process killed in the middle of writes leaves no corrupt or empty file', async () => {
    const dataDir = await tempDirForTest();
    const [host] = await startHosts(dataDir, 1);
    const bundleID = newID();
    await put(host!, bundleID, { slug: 'crash', displayName: 'Crash' });
    const bulky = { type: 'object', properties: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`field${i}`, { type: 'string', description: 'x'.repeat(60) }])) };
    // Kill it once ten writes have landed, with a hundred more in flight.
    let landed = 0;
    let markTenLanded = () => {};
    const tenLanded = new Promise<void>((resolve) => (markTenLanded = resolve));
    const writes = Array.from({ length: 150 }, (_, index) =>
      put(host!, `${bundleID}/tools/t${index}/version/v1`, httpTool({ argSchema: bulky })).then(
        (response) => {
          if (response.status === 201 && ++landed === 10) markTenLanded();
        },
        () => null,
      ),
    );
    await tenLanded;
    host!.child.kill('SIGKILL');
    await Promise.all(writes);
    await host!.exited;

    const toolsDir = path.join(dataDir, 'bundles', bundleID, 'tools');
    const jsonFiles = (await readdir(toolsDir)).filter((file) => file.endsWith('.json'));
    // The kill came between writes that landed and writes that did not.
    expect(jsonFiles.length).toBeGreaterThanOrEqual(10);
    expect(jsonFiles.length).toBeLessThan(150);
    for (const file of jsonFiles) {
      const text = await readFile(path.join(toolsDir, file), 'utf8');
      expect(text.length, file).toBeGreaterThan(0);
      expect(() => JSON.parse(text) as unknown, file).not.toThrow();
    }
    const fresh = await startTestCore({ dataDir });
    const listed = await fresh.call('tools.list', { bundleIDs: [bundleID], includeDisabled: true, recommendedPageSize: 500 });
    expect(listed.tools).toHaveLength(jsonFiles.length);
    expect(listed.tools.every((tool) => tool.status === 'valid')).toBe(true);
    // The store still takes writes after the crash (stale lock files are recovered).
    await expect(
      fresh.call('tools.put', { bundleID, toolSlug: 'after-crash', version: 'v1', tool: httpTool() }),
    ).resolves.toMatchObject({ slug: 'after-crash' });
  });
});
