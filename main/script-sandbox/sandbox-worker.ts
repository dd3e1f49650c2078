// The script sandbox's worker thread: QuickJS compiled to WebAssembly, a
// fresh runtime for every call (made between calls, ahead of the one that
// takes it, and never used twice), with a memory limit, a CPU deadline that
// interrupts the interpreter, and nothing of Node, the file system, the
// environment or the host's globals. A script reaches the outside only
// through what the prelude gives it (fetch, secret, console), each a message
// to the thread that started this one.
import { parentPort } from 'node:worker_threads';
import variant from '@jitl/quickjs-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant, shouldInterruptAfterDeadline, type QuickJSContext, type QuickJSDeferredPromise, type QuickJSHandle, type QuickJSRuntime } from 'quickjs-emscripten-core';
import { PRELUDE, scriptFailure, type HostService, type RunRequest, type ScriptDone, type ToWorker, type WorkerIdle } from './sandbox-protocol.js';

const port = parentPort;
if (!port) throw new Error('The script sandbox runs only as a worker thread.');
const quickjs = await newQuickJSWASMModuleFromVariant(variant);

/** Host replies this run waits for, by request id. */
const waiting = new Map<number, (reply: { ok: boolean; text: string }) => void>();
/** The next call's runtime, made between calls (see prepare). */
let spare: Prepared | null = null;

port.on('message', (message: ToWorker) => {
  if (message.type === 'reply') {
    waiting.get(message.requestId)?.(message);
    waiting.delete(message.requestId);
    return;
  }
  run(message)
    .then(({ done, release }) => {
      // The answer first: the run's runtime is freed while the host reads it, and the host learns after (idle)
      // whether this thread may take another run.
      port.postMessage(done);
      const broken = !release();
      port.postMessage({ type: 'idle', runId: message.runId, broken } satisfies WorkerIdle);
      // The next call's runtime is made now, while the host reads this answer, not when that call comes.
      if (!broken) prepareSpare();
    })
    // A failure of the sandbox itself (not the script's): this thread cannot be trusted with another run.
    .catch((error: unknown) => {
      port.postMessage({ type: 'done', runId: message.runId, outcome: scriptFailure('script_crashed', `The script sandbox failed: ${String(error)}`), logs: [], memoryBytes: 0, broken: true } satisfies ScriptDone);
    });
});
prepareSpare();
port.postMessage({ type: 'ready' });

/**
 * A runtime and context with the prelude in place, made ahead of the call
 * that takes it (between calls), never used before: each call still gets a
 * fresh one. Its host functions read the call's request, logs and pending
 * host requests from `state`, which the call fills in when it takes it.
 */
interface Prepared {
  runtime: QuickJSRuntime;
  vm: QuickJSContext;
  state: RunState;
}

/** What a call's host functions act on: set when a call takes the prepared runtime. */
interface RunState {
  request: RunRequest | null;
  logs: ScriptDone['logs'];
  calls: Calls;
}

function prepare(): Prepared {
  const runtime = quickjs.newRuntime();
  runtime.setMaxStackSize(512 * 1024);
  const vm = runtime.newContext();
  const state: RunState = { request: null, logs: [], calls: { outstanding: 0, next: 0, deferreds: [], wake: () => undefined } };
  installHost(vm, runtime, state);
  return { runtime, vm, state };
}

/** Makes the next call's runtime; if that fails, the call makes its own (and says why if it fails again). */
function prepareSpare(): void {
  if (spare) return;
  try {
    spare = prepare();
  } catch {
    spare = null;
  }
}

async function run(request: RunRequest): Promise<{ done: ScriptDone; release: () => boolean }> {
  const taken = spare ?? prepare();
  spare = null;
  const { vm, runtime, state } = taken;
  state.request = request;
  runtime.setMemoryLimit(request.limits.memoryBytes);
  const deadline = Date.now() + request.limits.timeoutMs;
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
  let done: ScriptDone;
  try {
    const outcome = await callDefault(vm, runtime, request, deadline, state.calls);
    done = { type: 'done', runId: request.runId, outcome, logs: state.logs, memoryBytes: request.measureMemory ? memoryUsed(vm, runtime) : 0 };
  } finally {
    waiting.clear();
    // Promises handed to the script that never settled are still the host's to let go of.
    for (const deferred of state.calls.deferreds) if (deferred.alive) deferred.dispose();
  }
  return { done, release: () => released(vm, runtime) };
}

/**
 * Frees a run's context and runtime; false when QuickJS found an object
 * still held (a bug of this file, not the script's): the answer stands, but
 * this thread's WebAssembly may be broken, so it takes no other run.
 */
function released(vm: QuickJSContext, runtime: QuickJSRuntime): boolean {
  try {
    vm.dispose();
    runtime.dispose();
    return true;
  } catch {
    return false;
  }
}

/** The host requests of one run: those not answered yet, the promises handed to the script, and who to wake on an answer. */
interface Calls {
  outstanding: number;
  next: number;
  deferreds: QuickJSDeferredPromise[];
  wake: () => void;
}

/** The globals a script has: the prelude's fetch, secret and console, over three host functions acting for the call in `state`. */
function installHost(vm: QuickJSContext, runtime: QuickJSRuntime, state: RunState): void {
  const { calls, logs } = state;
  const ask = (service: HostService, payload: string) =>
    new Promise<{ ok: boolean; text: string }>((resolve) => {
      const requestId = calls.next++;
      calls.outstanding++;
      waiting.set(requestId, (reply) => {
        calls.outstanding--;
        resolve(reply);
      });
      port!.postMessage({ type: 'host', service, runId: state.request!.runId, requestId, payload });
    });
  /** A host function that hands the script a promise of the host's answer to a request of this service. */
  const asking = (service: HostService) => (payloadHandle: QuickJSHandle) => {
    const deferred = vm.newPromise();
    calls.deferreds.push(deferred);
    ask(service, vm.getString(payloadHandle))
      .then((reply) => {
        if (!deferred.alive) return;
        if (reply.ok) {
          const text = vm.newString(reply.text);
          deferred.resolve(text);
          text.dispose();
        } else {
          const error = vm.newError({ name: service === 'fetch' ? 'FetchError' : 'ToolError', message: reply.text });
          deferred.reject(error);
          error.dispose();
        }
        deferred.dispose();
        runtime.executePendingJobs();
        calls.wake();
      })
      .catch(() => undefined);
    return deferred.handle;
  };
  const fetchHandle = vm.newFunction('__hostFetch', asking('fetch'));
  const callHandle = vm.newFunction('__hostCall', asking('call'));
  const secretHandle = vm.newFunction('__hostSecret', (nameHandle) => {
    const name = vm.getString(nameHandle);
    const value = Object.hasOwn(state.request!.secrets, name) ? state.request!.secrets[name] : undefined;
    if (value === undefined) return { error: vm.newError({ name: 'SecretError', message: `The secret "${name}" is not one this tool declares (impl.secrets), so the script cannot read it.` }) };
    return vm.newString(value);
  });
  const logHandle = vm.newFunction('__hostLog', (levelHandle, textHandle) => {
    if (logs.length >= state.request!.limits.logLines) return;
    const level = vm.getString(levelHandle);
    logs.push({ level: level === 'warn' || level === 'error' ? level : 'log', text: vm.getString(textHandle).slice(0, 2_000) });
  });
  for (const [name, handle] of [['__hostFetch', fetchHandle], ['__hostCall', callHandle], ['__hostSecret', secretHandle], ['__hostLog', logHandle]] as const) {
    vm.setProp(vm.global, name, handle);
    handle.dispose();
  }
  vm.unwrapResult(vm.evalCode(PRELUDE, 'prelude.js', { type: 'global' })).dispose();
}

/** Evaluates the module, calls its default export with the arguments by parameter name, and waits for its answer. */
async function callDefault(vm: QuickJSContext, runtime: QuickJSRuntime, request: RunRequest, deadline: number, calls: Calls): Promise<ScriptDone['outcome']> {
  const evaluated = vm.evalCode(request.code, 'tool.js', { type: 'module' });
  if (evaluated.error) return failureOf(vm, evaluated.error);
  const handles: QuickJSHandle[] = [evaluated.value];
  try {
    const moduleState = vm.getPromiseState(evaluated.value);
    if (moduleState.type !== 'fulfilled') return scriptFailure('script_error', 'The script waits at the top of its module; put the waiting inside its function.');
    if (!moduleState.notAPromise) handles.push(moduleState.value);
    const main = vm.getProp(moduleState.value, 'default');
    handles.push(main);
    if (vm.typeof(main) !== 'function') return scriptFailure('script_error', 'The script has no default export function: write `export default function name(…) { … }`.');
    const args = request.parameters.map((name) => {
      const handle = vm.unwrapResult(vm.evalCode(`(${JSON.stringify(request.args[name] ?? null)})`, 'args.js', { type: 'global' }));
      handles.push(handle);
      return request.args[name] === undefined ? vm.undefined : handle;
    });
    const called = vm.callFunction(main, vm.undefined, ...args);
    if (called.error) return failureOf(vm, called.error);
    handles.push(called.value);
    runtime.executePendingJobs();
    for (;;) {
      const state = vm.getPromiseState(called.value);
      if (state.type === 'fulfilled') {
        if (!state.notAPromise) handles.push(state.value);
        return valueOf(vm, state.value, request.limits.outputChars);
      }
      if (state.type === 'rejected') return failureOf(vm, state.error);
      if (runtime.hasPendingJob()) {
        runtime.executePendingJobs();
        continue;
      }
      if (calls.outstanding === 0) return scriptFailure('script_error', "The function's promise never settles: nothing it waits for is left.");
      if (Date.now() >= deadline) return scriptFailure('script_timeout', `The script ran past its time limit of ${request.limits.timeoutMs} ms.`);
      // A host reply (fetch) runs the jobs it unblocks and wakes this; otherwise the deadline does.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
        calls.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    for (const handle of handles) if (handle.alive) handle.dispose();
  }
}

function valueOf(vm: QuickJSContext, handle: QuickJSHandle, outputChars: number): ScriptDone['outcome'] {
  // Once: dumping copies the whole value out of the sandbox. What JSON cannot say (undefined, a function) is null.
  const json = vm.typeof(handle) === 'undefined' ? 'null' : (JSON.stringify(vm.dump(handle)) ?? 'null');
  if (json.length > outputChars) return scriptFailure('script_output_too_large', `The script returned ${json.length} characters of JSON; a script's answer may have at most ${outputChars}.`);
  return { ok: true, json };
}

/** A thrown value as the tool's error: its code (time, memory or the script's own), message and line. */
function failureOf(vm: QuickJSContext, errorHandle: QuickJSHandle): ScriptDone['outcome'] {
  const error: unknown = vm.dump(errorHandle);
  errorHandle.dispose();
  const fields = error && typeof error === 'object' ? (error as { name?: unknown; message?: unknown; stack?: unknown }) : { message: String(error) };
  const message = typeof fields.message === 'string' ? fields.message : JSON.stringify(error) ?? String(error);
  const name = typeof fields.name === 'string' ? fields.name : 'Error';
  const line = typeof fields.stack === 'string' ? Number(/tool\.js:(\d+)/.exec(fields.stack)?.[1]) || undefined : undefined;
  if (name === 'InternalError' && message === 'interrupted') return scriptFailure('script_timeout', 'The script ran past its time limit and was stopped.');
  if (/out of memory|string too long|invalid array length/i.test(message)) return scriptFailure('script_memory', `The script ran out of memory (${message}).`, line);
  return scriptFailure('script_error', `${name}: ${message}`.slice(0, 2_000), line);
}

function memoryUsed(vm: QuickJSContext, runtime: QuickJSRuntime): number {
  const usage = runtime.computeMemoryUsage();
  try {
    const dumped = vm.dump(usage) as { memory_used_size?: number };
    return typeof dumped.memory_used_size === 'number' ? dumped.memory_used_size : 0;
  } finally {
    usage.dispose();
  }
}
