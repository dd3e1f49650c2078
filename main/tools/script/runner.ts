import { createHash } from 'node:crypto';
import { ToolbeltError } from '../../../shared/errors.js';
import type { BundleHttp } from '../../../shared/schemas/http-impl.js';
import { Redactor } from '../../common/redact.js';
import { DEFAULT_SCRIPT_LIMITS, type ScriptFetchRequest, type ScriptFetchResponse } from '../../script-sandbox/sandbox-protocol.js';
import type { ScriptPool } from '../../script-sandbox/script-pool.js';
import type { CompiledScript, CompiledScriptCache } from '../../script-sandbox/compiled-cache.js';
import type { ReadScriptFn } from '../../script-sandbox/signature-reader.js';
import type { SecretStore } from '../../secrets/secret-store.js';
import type { SettingsStore } from '../../settings/settings-store.js';
import type { TraceEntry } from '../../../shared/schemas/invocation.js';
import type { AgentStep } from '../../../shared/schemas/agent-step.js';
import { InvokeFailure, type InvokeErrorCode } from '../invoke-error.js';
import { executeHttp, type HttpExecutorDeps } from '../http/executor.js';
import type { RunContext, RunOutcome, ToolRunner } from '../runners.js';
import { toolCaller, type ScriptCallDeps, type ScriptTool } from './tool-calls.js';

/** Every status is an answer a script reads (response.ok says whether it is a success). */
const EVERY_STATUS = Array.from({ length: 500 }, (_, index) => index + 100);
const COMPILED_KEPT = 200;
/** A script's fetch waits at most this long for an answer, within its call's own limit. */
const FETCH_TIMEOUT_MS = 15_000;

/**
 * Script tools: the module, transpiled once per source, runs in the script
 * sandbox with the call's arguments; its `fetch` goes through the HTTP
 * executor (allowed hosts on every hop, redirects, timeout, size limit),
 * `secret()` reads only the secrets the tool declares, and those values are
 * masked in its answer, its console lines and its errors.
 */
export function scriptRunner(deps: {
  pool: () => ScriptPool;
  secrets: SecretStore;
  settings: SettingsStore;
  executor: HttpExecutorDeps;
  bundle: (bundleID: string) => { http?: BundleHttp } | undefined;
  /** `tools.call`: the tool a name means, the one door to the person, and the invoker (read when a call runs). */
  calls: ScriptCallDeps;
  /** Transpiled scripts kept on disk across starts. */
  compiledCache?: CompiledScriptCache;
  /** Reads a script off the core's thread, within a time and memory budget. */
  readScript: ReadScriptFn;
}): ToolRunner<ScriptTool> {
  const compiled = new Map<string, Promise<CompiledScript>>();
  const compile = (tool: ScriptTool) => {
    // By a digest: kept whole, 200 sources of up to 200,000 characters would be 40 MB of keys.
    const key = deps.compiledCache?.key(tool.impl.language, tool.impl.source) ?? createHash('sha256').update(tool.impl.language).update('\n').update(tool.impl.source).digest('base64url');
    let found = compiled.get(key);
    if (!found) {
      found = (async () => {
        // Kept on disk from an earlier start: no TypeScript compiler to load for it.
        const kept = await deps.compiledCache?.read(key);
        if (kept) return kept;
        const read = await deps.readScript(tool.impl.source, tool.impl.language);
        const made: CompiledScript = { code: read.code, parameters: read.parameters, ...(read.problems[0] ? { problem: `line ${read.problems[0].line}: ${read.problems[0].message}` } : {}) };
        // A read stopped past its budget (a busy machine may be why) is kept nowhere: the next call reads it again.
        if (read.stopped) compiled.delete(key);
        else deps.compiledCache?.keep(key, made);
        return made;
      })();
      if (compiled.size >= COMPILED_KEPT) compiled.delete(compiled.keys().next().value!);
      compiled.set(key, found);
    }
    return found;
  };

  async function declaredSecrets(tool: ScriptTool): Promise<Record<string, string>> {
    const values: Record<string, string> = {};
    for (const name of tool.impl.secrets ?? []) {
      let value: string | null;
      try {
        value = await deps.secrets.resolve(name);
      } catch (error) {
        if (error instanceof ToolbeltError && error.code === 'secret_reserved') throw new InvokeFailure('secret_reserved', error.message);
        throw error;
      }
      if (value === null) throw new InvokeFailure('missing_secret', `${tool.displayName} needs the secret ${name}, which is not set. Set it in Settings → Secrets.`);
      values[name] = value;
    }
    return values;
  }

  function fetcher(tool: ScriptTool, redactor: Redactor, context: RunContext, trace: TraceEntry[]) {
    const allowedHosts = [...deps.settings.get().allowedHosts, ...(deps.bundle(tool.bundleID)?.http?.allowedHosts ?? [])];
    return async (request: ScriptFetchRequest): Promise<ScriptFetchResponse> => {
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        throw new Error(`fetch: "${request.url}" is not a URL.`);
      }
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`fetch: only http and https URLs are fetched, not ${url.protocol}`);
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) headers.set(name, value);
      const outcome = await executeHttp(
        {
          toolKey: `${tool.toolID}@${tool.modifiedAt}`,
          toolName: tool.displayName,
          impl: {
            method: request.method as 'GET',
            urlTemplate: url.toString(),
            successCodes: EVERY_STATUS,
            responseEncoding: 'text',
            timeoutMs: FETCH_TIMEOUT_MS,
            ...(tool.impl.limits?.maxResponseBytes ? { limits: { maxResponseBytes: tool.impl.limits.maxResponseBytes } } : {}),
          },
          prebuilt: { method: request.method, url, headers, body: request.body, sensitiveHeaders: new Set(['authorization', 'cookie', 'x-api-key']), derivedSecrets: [] },
          args: {},
          argumentNames: new Set(),
          allowedHosts,
          resolveSecret: () => Promise.resolve(null),
          signal: context.signal,
          trace: context.trace,
        },
        deps.executor,
      );
      trace.push(...outcome.trace.map((entry) => redactor.value(entry)));
      if (outcome.failure) throw new Error(redactor.text(outcome.failure.message));
      const response = outcome.response!;
      return { status: response.status, headers: response.headers, text: response.text };
    };
  }

  return {
    availability: () => null,
    preview: () => Promise.resolve(null),
    logLevel: () => 'info',
    async run(tool, args, context): Promise<RunOutcome> {
      const empty = new Redactor([]);
      const failed = (code: InvokeErrorCode, message: string, redactor = empty): RunOutcome => ({
        failure: new InvokeFailure(code, redactor.text(message)),
        redactor,
        attempts: 1,
      });
      const script = await compile(tool);
      if (script.problem) return failed('script_error', `${tool.displayName} cannot run: ${script.problem}`);
      let secrets: Record<string, string>;
      try {
        secrets = await declaredSecrets(tool);
      } catch (error) {
        if (error instanceof InvokeFailure) return { failure: error, redactor: empty, attempts: 1 };
        throw error;
      }
      const redactor = new Redactor(Object.values(secrets));
      const trace: TraceEntry[] = [];
      const steps: AgentStep[] = [];
      const limits = {
        ...DEFAULT_SCRIPT_LIMITS,
        ...(tool.impl.limits?.memoryMb ? { memoryBytes: tool.impl.limits.memoryMb * 1024 * 1024 } : {}),
        ...(context.timeoutMs ?? tool.impl.limits?.timeoutMs ? { timeoutMs: context.timeoutMs ?? tool.impl.limits!.timeoutMs! } : {}),
      };
      let result;
      try {
        const services = { fetch: fetcher(tool, redactor, context, trace), call: toolCaller(deps.calls, tool, context, steps) };
        // Called by another call (a script's or an agent's): it may need a worker while its caller holds one.
        const nested = (context.agentPath?.length ?? 0) > 0;
        // What the run used of its heap is for the tester, which asks for the trace too.
        const run = { code: script.code, parameters: script.parameters, args, secrets, limits, measureMemory: context.trace };
        result = await deps.pool().run(run, services, context.signal, nested);
      } catch (error) {
        if (context.signal.aborted) return failed('cancelled', `${tool.displayName} was cancelled; its script was stopped.`);
        throw error;
      }
      const logs = result.logs.map((line) => ({ ...line, text: redactor.text(line.text) }));
      const extra = {
        ...(logs.length ? { logs } : {}),
        ...(context.trace && trace.length ? { trace } : {}),
        ...(steps.length ? { steps } : {}),
        ...(result.memoryBytes ? { memoryBytes: result.memoryBytes } : {}),
      };
      if (!result.outcome.ok) {
        const where = result.outcome.line ? ` (line ${result.outcome.line})` : '';
        return { ...failed(result.outcome.code, `${tool.displayName}: ${result.outcome.message}${where}`, redactor), ...extra };
      }
      return { value: JSON.parse(result.outcome.json) as unknown, redactor, attempts: 1, ...extra };
    },
  };
}
