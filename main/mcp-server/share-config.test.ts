import { utimes, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../log.js';
import { createKeyFileCipher } from '../secrets/key-file-cipher.js';
import { createLayout } from '../store/layout.js';
import { newID } from '../../testing/data/fixtures.js';
import { tempDirForTest } from '../../testing/harness/test-temp-dir.js';
import { ShareConfigFile } from './share-config.js';

describe('the MCP server settings file', () => {
  it('sees another process’s change even when the file keeps its size and modification time', async () => {
    const dataDir = await tempDirForTest();
    const cipher = await createKeyFileCipher(path.join(dataDir, 'secrets.key'));
    // Two processes on one folder: the app, and the stdio command.
    const app = new ShareConfigFile(createLayout(dataDir), cipher, silentLogger);
    const other = new ShareConfigFile(createLayout(dataDir), cipher, silentLogger);
    const [first, second] = [newID(), newID()];
    await app.update((config) => ({ ...config, sharedBundleIDs: [first] }));
    const file = path.join(dataDir, 'mcp-server.json');
    // Whole seconds, as a coarse file system keeps them: both writes land in the same tick.
    const tick = new Date('2026-11-24T12:00:00Z');
    await utimes(file, tick, tick);
    const before = await stat(file);
    expect((await other.current()).sharedBundleIDs).toEqual([first]);

    // Sharing another bundle instead: the same size, in the same tick.
    await app.update((config) => ({ ...config, sharedBundleIDs: [second] }));
    await utimes(file, tick, tick);
    const after = await stat(file);
    expect([after.size, after.mtimeMs]).toEqual([before.size, before.mtimeMs]);
    expect((await other.current()).sharedBundleIDs).toEqual([second]);
  });
});
