import { describe, expect, it, onTestFinished } from 'vitest';
import { silentLogger } from '../log.js';
import { SignatureReader } from './signature-reader.js';
import { signatureWorkerUrl } from './worker-location.js';

/** A worker of our own text: says it is ready, then does what `onRequest` says with each request. */
function workerDoing(onRequest: string): URL {
  const source = `import { parentPort } from 'node:worker_threads';
parentPort.on('message', (request) => { ${onRequest} });
parentPort.postMessage({ ready: true });`;
  return new URL(`data:text/javascript,${encodeURIComponent(source)}`);
}

function readerOn(workerUrl: URL, options: { timeoutMs?: number; maxHeapMb?: number } = {}) {
  const reader = new SignatureReader({ workerUrl, log: silentLogger, ...options });
  onTestFinished(() => reader.close());
  return reader;
}

describe('reading scripts off the core’s thread, within a budget', () => {
  it('reads a script on its worker as the compiler reads it', async () => {
    const reader = readerOn(signatureWorkerUrl(new URL('./worker-location.ts', import.meta.url).href));
    const read = await reader.read('/** Doubles. */\nexport default function double(n: number) { return n * 2; }', 'typescript');
    expect(read).toMatchObject({ parameters: ['n'], description: 'Doubles.', problems: [], argSchema: { properties: { n: { type: 'number' } } } });
  });

  it('a read past its time ends the worker and is a problem to act on; the next read gets a new worker', async () => {
    // The worker answers nothing the first time (a read that never ends), and reads the second.
    const reader = readerOn(workerDoing(`if (request.source !== 'hang') parentPort.postMessage({ id: request.id, ok: true, read: { code: 'ok', parameters: [], argSchema: {}, problems: [] } });`), { timeoutMs: 200 });
    const over = await reader.read('hang', 'typescript');
    expect(over.code).toBe('');
    expect(over.problems).toEqual([{ line: 1, message: expect.stringContaining('took longer than 0.2 s') as unknown }]);
    expect((await reader.read('fine', 'typescript')).code).toBe('ok');
  });

  it('a read that takes more memory than the budget ends the worker and is a problem, not the host’s heap', async () => {
    const reader = readerOn(workerDoing(`const hoard = []; for (;;) hoard.push(new Array(1e6).fill(Math.random()));`), { maxHeapMb: 32, timeoutMs: 60_000 });
    const over = await reader.read('anything', 'typescript');
    expect(over.problems).toEqual([{ line: 1, message: expect.stringContaining('more than 32 MB') as unknown }]);
  });

  it('reads waiting behind a slow one are answered after it, each in turn', async () => {
    const reader = readerOn(workerDoing(`if (request.source !== 'hang') parentPort.postMessage({ id: request.id, ok: true, read: { code: request.source, parameters: [], argSchema: {}, problems: [] } });`), { timeoutMs: 200 });
    const reads = await Promise.all(['hang', 'a', 'b'].map((source) => reader.read(source, 'javascript')));
    expect(reads.map((read) => read.code)).toEqual(['', 'a', 'b']);
  });
});
