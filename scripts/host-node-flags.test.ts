import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT, spawnHost } from '../testing/cores/spawned-host.js';
import { tempDirForTest } from '../testing/harness/test-temp-dir.js';
import { HOST_NODE_FLAGS } from './host-node-flags.mjs';

describe('the Node.js flags the browser host runs with', () => {
  it('are given by npm run serve, and to the hosts that tests and the bench start', async () => {
    const { scripts } = JSON.parse(await readFile(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.serve).toBe(`node ${HOST_NODE_FLAGS.join(' ')} scripts/serve.mjs`);
    const host = await spawnHost(['--data-dir', await tempDirForTest()]);
    try {
      const commandLine = (await readFile(`/proc/${host.child.pid}/cmdline`, 'utf8')).split('\0');
      for (const flag of HOST_NODE_FLAGS) expect(commandLine).toContain(flag);
    } finally {
      host.child.kill();
      await host.exited;
    }
  });
});
