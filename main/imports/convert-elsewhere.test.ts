import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../log.js';
import { descriptionConverter } from './convert-elsewhere.js';
import { forkImportProcess, type LaunchImportProcess } from './import-process.js';

/** Node's fork, with a record of each process it started and how that one ended (null while it runs). */
function countingLaunches(): { started: { ended: string | null }[]; counted: LaunchImportProcess } {
  const started: { ended: string | null }[] = [];
  const counted: LaunchImportProcess = (entry, args) => {
    const child = forkImportProcess(entry, args);
    const record = { ended: null as string | null };
    started.push(record);
    child.onExit((why) => (record.ended = why));
    return child;
  };
  return { started, counted };
}

const petstore = async () => ({ text: await readFile(path.join(import.meta.dirname, 'fixtures', 'petstore-3.0.yaml'), 'utf8') });

describe('converting a description in a process of its own', () => {
  it('works with a process that answers and waits to be ended, as Electron’s utility process does (process.parentPort), and ends it', async () => {
    const ended: string[] = [];
    let started = 0;
    // Node's fork of the worker as a utility process runs it: it answers through parentPort and does not exit by itself.
    const asUtility: LaunchImportProcess = (entry) => {
      const child = forkImportProcess(entry);
      started += 1;
      child.onExit((why) => ended.push(why));
      return child;
    };
    const convert = descriptionConverter(new URL('../../testing/workers/utility-import-worker-dev.mjs', import.meta.url), silentLogger, asUtility);
    expect((await convert.convert({ source: await petstore(), allowedHosts: [] })).operations).toHaveLength(20);
    // The same process reads the next one.
    expect((await convert.convert({ source: await petstore(), allowedHosts: [], baseUrl: 'https://petstore.test/v2' })).operations).toHaveLength(20);
    expect(started).toBe(1);
    convert.close();
    await expect.poll(() => ended).toEqual(['SIGKILL']);
  });

  it('says why when the process ends before it answers, and converts in the core when it cannot start', async () => {
    const silent: LaunchImportProcess = (entry) => {
      const child = forkImportProcess(entry);
      return { ...child, send: () => child.kill() };
    };
    const convert = descriptionConverter(new URL('../../testing/workers/import-worker-dev.mjs', import.meta.url), silentLogger, silent);
    await expect(convert.convert({ source: await petstore(), allowedHosts: [] })).rejects.toMatchObject({
      code: 'import_invalid',
      message: expect.stringMatching(/the process reading it ended \(SIGKILL\) before it answered/) as unknown,
    });
    const unstartable: LaunchImportProcess = () => {
      throw new Error('no processes here');
    };
    const inCore = descriptionConverter(new URL('../../testing/workers/import-worker-dev.mjs', import.meta.url), silentLogger, unstartable);
    expect((await inCore.convert({ source: await petstore(), allowedHosts: [] })).operations).toHaveLength(20);
    convert.close();
  });

  it('a process started ahead reads the next description, and one left waiting is ended', async () => {
    const { started, counted } = countingLaunches();
    const converter = descriptionConverter(new URL('../../testing/workers/import-worker-dev.mjs', import.meta.url), silentLogger, counted, { spareKeptMs: 60_000, usesPerProcess: 2 });
    const ready = converter.prepare();
    expect(converter.prepare()).toBe(ready);
    expect(started).toHaveLength(1);
    // It says when it has warmed up (reading a small description of its own), before any is sent.
    await ready;
    expect(started[0]!.ended).toBeNull();
    expect((await converter.convert({ source: await petstore(), allowedHosts: [] })).operations).toHaveLength(20);
    // It read it and is kept for the next: asked to prepare, the core starts no other.
    await converter.prepare();
    expect(started).toHaveLength(1);
    expect(started[0]!.ended).toBeNull();
    // It reads the next too, and having read its share (two here) it is ended.
    expect((await converter.convert({ source: await petstore(), allowedHosts: [] })).operations).toHaveLength(20);
    await expect.poll(() => started[0]!.ended).toBe('SIGKILL');
    // One started for the next is ended with the core.
    await converter.prepare();
    expect(started).toHaveLength(2);
    converter.close();
    await expect.poll(() => started[1]!.ended).toBe('SIGKILL');
    await converter.prepare();
    expect(started).toHaveLength(2);

    // Nothing comes: the one started ahead is ended when its time is over.
    const briefly = descriptionConverter(new URL('../../testing/workers/import-worker-dev.mjs', import.meta.url), silentLogger, counted, { spareKeptMs: 50 });
    await briefly.prepare();
    await expect.poll(() => started[2]?.ended).toBe('SIGKILL');
    // A spare that ended is not given a description: a new process reads it.
    expect((await briefly.convert({ source: await petstore(), allowedHosts: [] })).operations).toHaveLength(20);
    expect(started).toHaveLength(4);
    // Kept after its answer, it too is ended when its time is over.
    await expect.poll(() => started[3]!.ended).toBe('SIGKILL');
  });

  it('a process holding too much after its answer is ended rather than kept, and two descriptions at once are read by two', async () => {
    const { started, counted } = countingLaunches();
    const url = new URL('../../testing/workers/import-worker-dev.mjs', import.meta.url);
    const small = descriptionConverter(url, silentLogger, counted, { keepBelowRssBytes: 1024 });
    expect((await small.convert({ source: await petstore(), allowedHosts: [] })).operations).toHaveLength(20);
    await expect.poll(() => started[0]!.ended).toBe('SIGKILL');
    small.close();

    const converter = descriptionConverter(url, silentLogger, counted);
    const both = await Promise.all([converter.convert({ source: await petstore(), allowedHosts: [] }), converter.convert({ source: await petstore(), allowedHosts: [] })]);
    expect(both.map((converted) => converted.operations.length)).toEqual([20, 20]);
    expect(started).toHaveLength(3);
    // One is kept, the other ended; the one kept ends with the core.
    await expect.poll(() => started.slice(1).filter((record) => record.ended === 'SIGKILL')).toHaveLength(1);
    converter.close();
    await expect.poll(() => started.slice(1).filter((record) => record.ended === 'SIGKILL')).toHaveLength(2);
  });

  it('gives up on a description its process has not answered within the read time, and ends that process', async () => {
    const { started, counted } = countingLaunches();
    // The process never hears of the description, as one stuck reading it never answers.
    const stuck: LaunchImportProcess = (entry, args) => ({ ...counted(entry, args), send: () => {} });
    const converter = descriptionConverter(new URL('../../testing/workers/import-worker-dev.mjs', import.meta.url), silentLogger, stuck, { readTimeoutMs: 300 });
    await expect(converter.convert({ source: await petstore(), allowedHosts: [] })).rejects.toMatchObject({ code: 'import_invalid', message: 'The description took more than 0.3 s to read; it was given up on. Try again; if it takes as long, import it from a file (a slow address is often the cause) or a part of it.' });
    await expect.poll(() => started.map((record) => record.ended)).toEqual(['SIGKILL']);
    converter.close();
  });
});
