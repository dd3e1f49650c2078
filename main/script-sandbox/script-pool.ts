import { Worker } from 'node:worker_threads';
import type { Logger } from '../log.js';
import { DEFAULT_SCRIPT_LIMITS, scriptFailure, type FromWorker, type RunRequest, type ScriptDone, type ScriptFetchRequest, type ScriptFetchResponse, type ScriptToolCall, type ScriptToolCallResult } from './sandbox-protocol.js';

/** What the host does for a running script: its fetches (through the HTTP executor's checks), its calls of other tools. */
export interface ScriptServices {
  fetch(request: ScriptFetchRequest): Promise<ScriptFetchResponse>;
  call(request: ScriptToolCall): Promise<ScriptToolCallResult>;
}

export type ScriptRun = Omit<RunRequest, 'type' | 'runId'>;
export type ScriptResult = Omit<ScriptDone, 'type' | 'runId'>;

/** What warm() runs: nothing, through every step of a real run. */
const WARM_UP_SCRIPT = 'export default function warmUp() { return null; }';
const NO_SERVICES: ScriptServices = {
  fetch: () => Promise.reject(new Error('The warm-up script fetches nothing.')),
  call: () => Promise.reject(new Error('The warm-up script calls nothing.')),
};

/** A run the worker did not answer this long after its own deadline is taken from it: the thread is ended. */
const WATCHDOG_GRACE_MS = 2_000;

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  busy: boolean;
  /** Its last run left its WebAssembly in doubt: retired instead of reused. */
  broken?: boolean;
}

interface Queued {
  /** A script called by another call (tools.call): it must not wait for a worker its caller holds. */
  nested: boolean;
  run: ScriptRun;
  services: ScriptServices;
  signal: AbortSignal;
  resolve(result: ScriptResult): void;
  reject(error: unknown): void;
}

/**
 * Worker threads that run scripts in their WebAssembly sandbox, at most
 * `size` at once; more calls wait their turn. A worker that crashes, or
 * outlives a run's deadline (an interpreter that did not stop), is ended and
 * replaced; a call cancelled while it runs ends its worker too. The core's
 * own thread never runs a script, so it answers other calls meanwhile.
 */
export class ScriptPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Queued[] = [];
  private nextRunId = 0;
  private closed = false;

  constructor(private readonly options: { workerUrl: URL; size: number; log: Logger; execArgv?: string[] }) {}

  /**
   * Runs a script when a worker is free. A `nested` run (a script that a
   * call's script called) goes first and gets a worker of its own beyond the
   * pool's size if none is free: its caller holds one while it waits, and the
   * depth rule (at most three levels) bounds how many that can be.
   */
  run(run: ScriptRun, services: ScriptServices, signal: AbortSignal, nested = false): Promise<ScriptResult> {
    if (this.closed) return Promise.reject(new Error('The script sandbox is closed.'));
    return new Promise((resolve, reject) => {
      const queued = { nested, run, services, signal, resolve, reject };
      if (nested) this.queue.unshift(queued);
      else this.queue.push(queued);
      this.pump();
    });
  }

  /**
   * Starts a worker before the first script call needs one (the core does
   * when script tools are there), and runs an empty script on it: that call
   * then skips the worker's start and its WebAssembly (about 50 ms), and
   * finds the engine's paths through a run already compiled by V8 (another
   * 30-60 ms on a slow machine). Resolves once that is done.
   */
  async warm(): Promise<void> {
    if (this.closed || this.slots.length > 0) return;
    try {
      await this.spawn().ready;
      await this.run({ code: WARM_UP_SCRIPT, parameters: [], args: {}, secrets: {}, limits: DEFAULT_SCRIPT_LIMITS }, NO_SERVICES, new AbortController().signal);
    } catch (error) {
      // Closed while it started (the core shutting down): nothing went wrong.
      if (!this.closed) throw error;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const queued of this.queue.splice(0)) queued.reject(new Error('The script sandbox closed.'));
    await Promise.all(this.slots.splice(0).map((slot) => slot.worker.terminate()));
  }

  private pump(): void {
    while (this.queue.length > 0) {
      const next = this.queue[0]!;
      const slot = this.slots.find((each) => !each.busy) ?? (this.slots.length < this.options.size || next.nested ? this.spawn() : undefined);
      if (!slot) return;
      const queued = this.queue.shift()!;
      if (queued.signal.aborted) {
        queued.reject(queued.signal.reason);
        continue;
      }
      slot.busy = true;
      // runOn settles the call itself, whatever happens; this only frees the worker for the next.
      this.runOn(slot, queued)
        .catch((error: unknown) => queued.reject(error))
        .finally(() => {
          slot.busy = false;
          // A worker started beyond the pool's size for a nested run is not kept once it is idle, nor a broken one.
          if (slot.broken || (this.slots.length > this.options.size && this.queue.length === 0)) this.retire(slot);
          this.pump();
        });
    }
  }

  /** Ends a worker and forgets it; the next call that needs one starts another. */
  private retire(slot: Slot): void {
    const at = this.slots.indexOf(slot);
    if (at !== -1) this.slots.splice(at, 1);
    slot.worker.terminate().catch((error: unknown) => this.options.log.warn('a script sandbox worker did not end', { error: String(error) }));
  }

  private spawn(): Slot {
    const worker = new Worker(this.options.workerUrl, { ...(this.options.execArgv ? { execArgv: this.options.execArgv } : {}), resourceLimits: { maxOldGenerationSizeMb: 256 } });
    const ready = new Promise<void>((resolve, reject) => {
      worker.once('message', (message: FromWorker) => (message.type === 'ready' ? resolve() : reject(new Error('The script sandbox did not start.'))));
      worker.once('error', reject);
      // Ended before it was ready (the pool closed while it started): whoever waits for it hears so.
      worker.once('exit', (code) => reject(new Error(`The script sandbox ended before it started (exit code ${code}).`)));
    });
    // Its start may fail; a run on it says so.
    ready.catch(() => undefined);
    const slot: Slot = { worker, ready, busy: false };
    worker.on('exit', () => {
      const at = this.slots.indexOf(slot);
      if (at !== -1) this.slots.splice(at, 1);
    });
    this.slots.push(slot);
    return slot;
  }

  /**
   * One run on one worker: the caller is answered when the worker answers,
   * and the worker is free again when it says so after freeing the run's
   * runtime (its `idle`), or ended.
   */
  private async runOn(slot: Slot, queued: Queued): Promise<void> {
    const { run, services, signal } = queued;
    const runId = this.nextRunId++;
    const { worker } = slot;
    let answered = false;
    let released = false;
    let over: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => (over = resolve));
    const answer = (result: ScriptResult | { error: unknown }) => {
      if (answered) return;
      answered = true;
      // A call answered is not cancelled any more: its worker is only freeing the run's runtime.
      signal.removeEventListener('abort', onAbort);
      if ('error' in result) queued.reject(result.error);
      else queued.resolve(result);
    };
    const finish = (result: ScriptResult | { error: unknown }) => {
      answer(result);
      if (released) return;
      released = true;
      over();
      clearTimeout(watchdog);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const end = (why: ScriptResult | { error: unknown }) => {
      finish(why);
      this.retire(slot);
    };
    const onMessage = (message: FromWorker) => {
      if (message.type === 'done' && message.runId === runId) {
        const result = { outcome: message.outcome, logs: message.logs, memoryBytes: message.memoryBytes };
        // A sandbox that failed itself says so with its answer (no idle follows): no other run goes to it (see pump).
        if (message.broken) {
          slot.broken = true;
          finish(result);
        } else answer(result);
      }
      if (message.type === 'idle' && message.runId === runId) {
        if (message.broken) slot.broken = true;
        finish(crashed('it ended the run without an answer'));
      }
      if (message.type === 'host' && message.runId === runId) {
        const asked = message.service === 'fetch' ? services.fetch(JSON.parse(message.payload) as ScriptFetchRequest) : services.call(JSON.parse(message.payload) as ScriptToolCall);
        asked.then(
          (response) => worker.postMessage({ type: 'reply', requestId: message.requestId, ok: true, text: JSON.stringify(response) }),
          (error: unknown) => worker.postMessage({ type: 'reply', requestId: message.requestId, ok: false, text: error instanceof Error ? error.message : String(error) }),
        );
      }
    };
    const crashed = (what: string) => ({ outcome: scriptFailure('script_crashed', `The script sandbox stopped (${what}); the call did not finish. Other calls go on.`), logs: [], memoryBytes: 0 });
    const onError = (error: Error) => {
      this.options.log.warn('script sandbox worker failed', { error: String(error) });
      end(crashed(error.message));
    };
    const onExit = (code: number) => finish(crashed(`exit code ${code}`));
    const onAbort = () => end({ error: signal.reason });
    const watchdog = setTimeout(
      () => end({ outcome: scriptFailure('script_timeout', `The script ran past its time limit of ${run.limits.timeoutMs} ms and its sandbox was stopped.`), logs: [], memoryBytes: 0 }),
      run.limits.timeoutMs + WATCHDOG_GRACE_MS,
    );
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      await slot.ready;
    } catch (error) {
      end(crashed(String(error)));
      return;
    }
    if (released) return;
    worker.postMessage({ type: 'run', runId, ...run } satisfies RunRequest);
    await finished;
  }
}
