import { ToolbeltError } from '../../../shared/errors.js';
import { effectiveHttp } from '../../../shared/tools/http-inherit.js';
import type { BundleHttp } from '../../../shared/schemas/http-impl.js';
import type { ToolFile } from '../../../shared/schemas/tool.js';
import type { SecretStore } from '../../secrets/secret-store.js';
import type { SettingsStore } from '../../settings/settings-store.js';
import { argumentNames } from '../../store/definition-checks.js';
import { extract } from '../extract.js';
import { InvokeFailure } from '../invoke-error.js';
import { Redactor } from '../../common/redact.js';
import type { ToolProgress } from '../../../shared/schemas/chat.js';
import type { ToolRunner } from '../runners.js';
import { executeHttp, previewHttpRequest, type HttpExecutorDeps } from './executor.js';

type HttpTool = Extract<ToolFile, { type: 'http' }>;

/** Declarative HTTP tools: one request built from templates, with retries, limits and extraction; what a tool leaves out, its bundle may set. */
export function httpRunner(deps: {
  secrets: SecretStore;
  settings: SettingsStore;
  executor: HttpExecutorDeps;
  /** A tool's bundle: its name and connection settings (none for a draft of a bundle not written yet). */
  bundle: (bundleID: string) => { name: string; http?: BundleHttp } | undefined;
}): ToolRunner<HttpTool> {
  // Argument names decide what `${name}` means; a schema is read once.
  const namesBySchema = new WeakMap<object, Set<string>>();
  const namesOf = (schema: Record<string, unknown>) => {
    let names = namesBySchema.get(schema);
    if (!names) namesBySchema.set(schema, (names = argumentNames(schema)));
    return names;
  };
  // Toolbelt's own secrets are refused by the store; for a tool that is a failure its caller reads, not a crash.
  const resolveSecret = async (name: string) => {
    try {
      return await deps.secrets.resolve(name);
    } catch (error) {
      if (error instanceof ToolbeltError && error.code === 'secret_reserved') throw new InvokeFailure('secret_reserved', error.message);
      throw error;
    }
  };
  const effective = (tool: HttpTool) => effectiveHttp(tool.impl, deps.bundle(tool.bundleID)?.http, deps.settings.get().allowedHosts);
  const cannotRun = (tool: HttpTool, problem: string) => new InvokeFailure('invalid_request', `${tool.displayName} cannot run: ${problem}.`);

  return {
    availability: (tool) => {
      const found = effective(tool);
      return found.ok ? null : found.problem;
    },
    logLevel: (tool) => tool.impl.logging ?? 'info',
    preview: (tool, args) => {
      const found = effective(tool);
      if (!found.ok) throw cannotRun(tool, found.problem);
      return previewHttpRequest({ impl: found.impl, args, argumentNames: namesOf(tool.argSchema), resolveSecret });
    },
    async run(tool, args, context) {
      const found = effective(tool);
      if (!found.ok) return { failure: cannotRun(tool, found.problem), attempts: 0, redactor: new Redactor([]) };
      const { impl, allowedHosts } = found;
      const progress = impl.responseEncoding === 'sse' && context.onProgress ? eventProgress(context.onProgress) : null;
      const outcome = await executeHttp(
        {
          toolKey: `${tool.toolID}@${tool.modifiedAt}`,
          toolName: tool.displayName,
          impl,
          args,
          argumentNames: namesOf(tool.argSchema),
          allowedHosts,
          resolveSecret,
          timeoutMs: context.timeoutMs,
          signal: context.signal,
          trace: context.trace,
          signInWhere: tool.impl.auth ? tool.displayName : (deps.bundle(tool.bundleID)?.name ?? tool.displayName),
          ...(progress ? { onEvent: progress.onEvent } : {}),
        },
        deps.executor,
      ).finally(() => progress?.stop());
      const { attempts, trace, redactor } = outcome;
      if (outcome.failure) return { failure: outcome.failure, attempts, trace, redactor };
      const response = outcome.response!;
      const { 'set-cookie': _cookie, ...headers } = response.headers;
      const meta = { status: response.status, headers: redactor.value(headers) };
      const emptyIsAnswer = (impl.errorMode ?? 'fail') === 'empty';
      let value = response.decoded;
      if (tool.impl.extractExpr) {
        try {
          const extracted = extract(tool.impl.extractExpr, response.decoded, response.text);
          if (!extracted.found && !emptyIsAnswer) {
            throw new InvokeFailure('extract_failed', `${tool.displayName}: extractExpr ${tool.impl.extractExpr} found nothing in the response.`, {
              status: response.status,
              snippet: redactor.text(response.text.slice(0, 300)),
            });
          }
          value = extracted.found ? extracted.value : null;
        } catch (error) {
          if (!(error instanceof InvokeFailure)) throw error;
          return { failure: error, attempts, trace, redactor };
        }
      }
      const mismatchIsWarning = deps.bundle(tool.bundleID)?.http?.outputMismatch === 'warn';
      return { value, emptyByDesign: value === null && emptyIsAnswer, meta, attempts, trace, redactor, ...(mismatchIsWarning ? { mismatchIsWarning } : {}) };
    },
  };
}

/** A stream's events as progress: at most one report per EVENT_REPORT_MS (a flood must not flood the window), the last one always. */
const EVENT_REPORT_MS = 25;
const EVENT_PREVIEW_CHARS = 200;

function eventProgress(report: (progress: ToolProgress) => void): { onEvent: (data: unknown, count: number) => void; stop: () => void } {
  let last = 0;
  let pending: { data: unknown; count: number } | null = null;
  let timer: NodeJS.Timeout | undefined;
  const send = () => {
    timer = undefined;
    if (!pending) return;
    const { data, count } = pending;
    pending = null;
    last = performance.now();
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    // The count is the progress; the message is the latest event's data as it came (no words to translate).
    report({ progress: count, message: text.length > EVENT_PREVIEW_CHARS ? `${text.slice(0, EVENT_PREVIEW_CHARS)}…` : text });
  };
  return {
    onEvent: (data, count) => {
      pending = { data, count };
      const wait = EVENT_REPORT_MS - (performance.now() - last);
      if (wait <= 0) send();
      else timer ??= setTimeout(send, wait);
    },
    stop: () => {
      clearTimeout(timer);
      send();
    },
  };
}
