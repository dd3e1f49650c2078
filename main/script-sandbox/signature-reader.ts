import { Worker } from 'node:worker_threads';
import { ToolbeltError } from '../../shared/errors.js';
import type { Logger } from '../log.js';
import type { ReadScript } from './signature.js';

export interface SignatureRequest {
  id: number;
  source: string;
  language: 'typescript' | 'javascript';
}

export type SignatureReply = { id: number; ok: true; read: ReadScript } | { id: number; ok: false; message: string };

/** Reads a script as saving it would: its code, parameters and schemas, or the problems. */
export type ReadScriptFn = (source: string, language: 'typescript' | 'javascript') => Promise<ReadScript>;

export interface SignatureReaderOptions {
  workerUrl: URL;
  log: Logger;
  /** How long one read may take once the worker is ready; past it the worker is ended and the read is a problem. */
  timeoutMs?: number;
  /** The worker's heap; past it the worker ends and the read is a problem. */
  maxHeapMb?: number;
  /** An idle worker (the TypeScript compiler, ~100 MB) is ended after this long. */
  idleMs?: number;
  /** How long the worker may take to load the compiler. */
  startTimeoutMs?: number;
}

interface Pending {
  request: Omit<SignatureRequest, 'id'>;
  resolve: (read: ReadScript) => void;
  reject: (error: unknown) => void;
}

interface Running {
  worker: Worker;
  ready: Promise<void>;
}

/**
 * Scripts are read on a worker thread, one at a time, each within a time and
 * a memory budget: a script whose types are slow or huge to read (a chain of
 * aliases each naming the next twice blocked the host for 20 s at 3 GB before
 * the reader wrote each named type once) ends its worker and reads as a
 * problem the person can act on, while the core's own thread goes on
 * answering. The next read starts a fresh worker.
 */
export class SignatureReader {
  private readonly queue: Pending[] = [];
  private running: Running | undefined;
  private busy = false;
  private nextId = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: SignatureReaderOptions) {}

  readonly read: ReadScriptFn = (source, language) => {
    if (this.closed) return Promise.reject(new ToolbeltError('unavailable', 'Toolbelt is closing; the script was not read.'));
    return new Promise((resolve, reject) => {
      this.queue.push({ request: { source, language }, resolve, reject });
      this.pump();
    });
  };

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idleTimer);
    for (const pending of this.queue.splice(0)) pending.reject(new ToolbeltError('unavailable', 'Toolbelt is closing; the script was not read.'));
    await this.end();
  }

  private pump(): void {
    if (this.busy || this.queue.length === 0) return;
    const pending = this.queue.shift()!;
    this.busy = true;
    clearTimeout(this.idleTimer);
    this.readOne(pending)
      .then(pending.resolve, pending.reject)
      .finally(() => {
        this.busy = false;
        if (this.queue.length > 0) this.pump();
        else if (this.running) {
          this.idleTimer = setTimeout(() => {
            this.end().catch((error: unknown) => this.options.log.warn('the script reader did not end', { error: String(error) }));
          }, this.options.idleMs ?? 60_000);
          this.idleTimer.unref();
        }
      });
  }

  private async readOne(pending: Pending): Promise<ReadScript> {
    const { worker, ready } = (this.running ??= this.start());
    try {
      await ready;
    } catch (error) {
      await this.end();
      throw new ToolbeltError('unavailable', `The script reader did not start: ${error instanceof Error ? error.message : String(error)}. Try again; restart Toolbelt if it goes on.`);
    }
    const id = this.nextId++;
    const timeoutMs = this.options.timeoutMs ?? 10_000;
    const maxHeapMb = this.options.maxHeapMb ?? 512;
    const outcome = await new Promise<{ reply: SignatureReply } | { over: string }>((resolve) => {
      const done = (value: { reply: SignatureReply } | { over: string }) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        resolve(value);
      };
      const onMessage = (reply: SignatureReply) => {
        if (reply.id === id) done({ reply });
      };
      const onError = (error: Error & { code?: string }) =>
        done({ over: error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `reading it needed more than ${maxHeapMb} MB` : `reading it stopped the reader (${error.message})` });
      const onExit = (code: number) => done({ over: `reading it stopped the reader (exit code ${code})` });
      const timer = setTimeout(() => done({ over: `reading it took longer than ${timeoutMs / 1000} s` }), timeoutMs);
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage({ id, ...pending.request } satisfies SignatureRequest);
    });
    if ('over' in outcome) {
      this.options.log.warn('a script could not be read within its budget', { why: outcome.over, chars: pending.request.source.length });
      await this.end();
      return unreadable(`The script's signature cannot be read: ${outcome.over}, and the reader was stopped. Simplify its types (name a type used in many places once) and try again.`);
    }
    if (!outcome.reply.ok) throw new Error(`The script reader failed: ${outcome.reply.message}`);
    return outcome.reply.read;
  }

  private start(): Running {
    const worker = new Worker(this.options.workerUrl, { resourceLimits: { maxOldGenerationSizeMb: this.options.maxHeapMb ?? 512 } });
    worker.unref();
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('it took too long to load the TypeScript compiler')), this.options.startTimeoutMs ?? 60_000);
      const settle = (error?: Error) => {
        clearTimeout(timer);
        worker.off('message', onReady);
        if (error) reject(error);
        else resolve();
      };
      const onReady = (message: { ready?: boolean }) => {
        if (message.ready) settle();
      };
      worker.on('message', onReady);
      // Kept for the worker's life: an error with no listener would be thrown in the core.
      worker.on('error', (error) => {
        settle(error);
        this.options.log.warn('the script reader failed', { error: String(error) });
      });
      worker.once('exit', (code) => settle(new Error(`it ended as it started (exit code ${code})`)));
    });
    ready.catch(() => undefined);
    worker.once('exit', () => {
      if (this.running?.worker === worker) this.running = undefined;
    });
    return { worker, ready };
  }

  private async end(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    clearTimeout(this.idleTimer);
    if (running) await running.worker.terminate();
  }
}

/** What a script reads as when it could not be read at all: no code to run, one problem on its first line. */
function unreadable(message: string): ReadScript {
  return { code: '', parameters: [], argSchema: { type: 'object', properties: {} }, problems: [{ line: 1, message }], stopped: true };
}
