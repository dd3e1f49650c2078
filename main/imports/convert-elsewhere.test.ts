import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../log.js';
import { descriptionConverter } from './convert-elsewhere.js';
import { forkImportProcess, type LaunchImportProcess } from './import-process.js';

const petstore = async () => ({ text: await readFile(path.join(import.meta.dirname, 'fixtures', 'petstore-3.0.yaml'), 'utf8') });

describe('converting a description in a process of its own', () => {
  it('works with a process that answers and waits to be ended, as Electron’s utility process does (process.parentPort), and ends it', async () => {
    const ended: string[] = [];
    // Node's fork of the worker as a utility process runs it: it answers through parentPort and does not exit by itself.
    const asUtility: LaunchImportProcess = (entry) => {
      const child = forkImportProcess(entry);
      child.onExit((why) => ended.push(why));
      return child;
    };
    const convert = descriptionConverter(new URL('../../testing/workers/utility-import-worker-dev.mjs', import.meta.url), silentLogger, asUtility);
    const converted = await convert({ source: await petstore(), allowedHosts: [] });
    expect(converted.operations).toHaveLength(20);
    await expect.poll(() => ended).toEqual(['SIGKILL']);
  });

  it('says why when the process ends before it answers, and converts in the core when it cannot start', async () => {
    const silent: LaunchImportProcess = (entry) => {
      const child = forkImportProcess(entry);
      return { ...child, send: () => child.kill() };
    };
    const convert = descriptionConverter(new URL('../../testing/workers/import-worker-dev.mjs', import.meta.url), silentLogger, silent);
    await expect(convert({ source: await petstore(), allowedHosts: [] })).rejects.toMatchObject({
      code: 'import_invalid',
      message: expect.stringMatching(/the process reading it ended \(SIGKILL\) before it answered/) as unknown,
    });
    const unstartable: LaunchImportProcess = () => {
      throw new Error('no processes here');
    };
    const inCore = descriptionConverter(new URL('../../testing/workers/import-worker-dev.mjs', import.meta.url), silentLogger, unstartable);
    expect((await inCore({ source: await petstore(), allowedHosts: [] })).operations).toHaveLength(20);
  });
});
