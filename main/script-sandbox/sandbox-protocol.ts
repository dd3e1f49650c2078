/**
 * What the script sandbox's worker and the thread that runs it say to each
 * other, and the prelude every script starts with. Values cross as JSON text:
 * nothing of either side's objects reaches the other.
 */

export type ScriptErrorCode = 'script_error' | 'script_timeout' | 'script_memory' | 'script_output_too_large' | 'script_crashed';

export interface ScriptLimits {
  /** The QuickJS heap a call may use. */
  memoryBytes: number;
  /** CPU and waiting time of a call, from its start: the interpreter is interrupted at the deadline. */
  timeoutMs: number;
  /** The largest answer, in characters of JSON. */
  outputChars: number;
  /** Console lines kept; the rest are dropped. */
  logLines: number;
}

export const DEFAULT_SCRIPT_LIMITS: ScriptLimits = { memoryBytes: 64 * 1024 * 1024, timeoutMs: 5_000, outputChars: 1_000_000, logLines: 200 };

export interface RunRequest {
  type: 'run';
  runId: number;
  /** The module as JavaScript (TypeScript is transpiled before). */
  code: string;
  /** The default export's parameter names, in order: the arguments are passed by them. */
  parameters: readonly string[];
  args: Record<string, unknown>;
  /** Only the secrets the tool declares, by name. */
  secrets: Record<string, string>;
  limits: ScriptLimits;
  /**
   * Whether to say how much of its heap the run used (the tester shows it): QuickJS walks every object of the runtime
   * for it, about as long as the rest of a trivial call, so calls nobody reads it for go without.
   */
  measureMemory?: boolean;
}

export type ToWorker = RunRequest | { type: 'reply'; requestId: number; ok: boolean; text: string };

export interface ScriptDone {
  type: 'done';
  runId: number;
  outcome: { ok: true; json: string } | { ok: false; code: ScriptErrorCode; message: string; line?: number };
  logs: { level: 'log' | 'warn' | 'error'; text: string }[];
  /** The heap the call's runtime used at its end; 0 when the run did not ask (measureMemory). */
  memoryBytes: number;
  /** The sandbox itself failed during this run (not the script): its thread takes no other run, and no `idle` follows. */
  broken?: boolean;
}

/**
 * After a run's answer: the run's runtime is freed, and the worker may take
 * another run unless `broken` (QuickJS found an object still held, a bug of
 * the worker: its WebAssembly may be broken). Sent after the answer so that
 * freeing (~140 µs) is no part of the call's time.
 */
export interface WorkerIdle {
  type: 'idle';
  runId: number;
  broken: boolean;
}

/** What a script asks of the host: a fetch, or a call of another tool (`tools.call`). */
export type HostService = 'fetch' | 'call';

export type FromWorker = { type: 'ready' } | ScriptDone | WorkerIdle | { type: 'host'; service: HostService; runId: number; requestId: number; payload: string };

export function scriptFailure(code: ScriptErrorCode, message: string, line?: number): ScriptDone['outcome'] {
  return { ok: false, code, message, ...(line !== undefined ? { line } : {}) };
}

/** A script's `fetch` request as it crosses to the host. */
export interface ScriptFetchRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** The host's answer to it. */
export interface ScriptFetchResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** A script's `tools.call(name, args)`, and its answer: the value, or the failed call's error. */
export interface ScriptToolCall {
  name: string;
  args: Record<string, unknown>;
}
export type ScriptToolCallResult = { ok: true; value: unknown } | { ok: false; error: { code: string; message: string } };

/**
 * The globals a script has, written in the script's own language over the
 * host functions: `fetch` (a Response with status, headers, text() and
 * json()), `tools.call(name, args)`, `secret(name)` and `console`. The host
 * functions are taken away from the global object, so only these reach them.
 */
export const PRELUDE = `
(() => {
  const hostFetch = globalThis.__hostFetch, hostCall = globalThis.__hostCall, hostSecret = globalThis.__hostSecret, hostLog = globalThis.__hostLog;
  delete globalThis.__hostFetch; delete globalThis.__hostCall; delete globalThis.__hostSecret; delete globalThis.__hostLog;
  const show = (value) => typeof value === 'string' ? value : (() => { try { return JSON.stringify(value) ?? String(value); } catch { return String(value); } })();
  const line = (level) => (...values) => hostLog(level, values.map(show).join(' '));
  globalThis.console = Object.freeze({ log: line('log'), info: line('log'), debug: line('log'), warn: line('warn'), error: line('error') });
  globalThis.secret = (name) => hostSecret(String(name));
  globalThis.tools = Object.freeze({
    call: async (name, args = {}) => {
      const answer = JSON.parse(await hostCall(JSON.stringify({ name: String(name), args })));
      if (answer.ok) return answer.value;
      const error = new Error(answer.error.message);
      error.name = 'ToolError';
      error.code = answer.error.code;
      throw error;
    },
  });
  globalThis.fetch = async (input, init = {}) => {
    const headers = {};
    for (const [key, value] of Object.entries(init.headers ?? {})) headers[String(key)] = String(value);
    const request = { url: String(input), method: String(init.method ?? 'GET').toUpperCase(), headers };
    if (init.body !== undefined && init.body !== null) request.body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    const answer = JSON.parse(await hostFetch(JSON.stringify(request)));
    return Object.freeze({
      ok: answer.status >= 200 && answer.status < 300,
      status: answer.status,
      headers: Object.freeze({ ...answer.headers }),
      text: async () => answer.text,
      json: async () => JSON.parse(answer.text),
    });
  };
})();
`;
