import type { Ajv2020 } from 'ajv/dist/2020.js';
import { ToolbeltError, type ValidationIssue } from '../../shared/errors.js';
import type { RequestPreview } from '../../shared/schemas/chat.js';
import type { InvokeResult, TraceEntry } from '../../shared/schemas/invocation.js';
import type { ToolFile } from '../../shared/schemas/tool.js';
import { createAjv, describeIssues, issuesFrom, type Validator } from '../common/validation.js';
import type { Clock } from '../common/clock.js';
import type { Logger } from '../log.js';
import type { SecretStore } from '../secrets/secret-store.js';
import type { SettingsStore } from '../settings/settings-store.js';
import { argumentNames } from '../store/definition-checks.js';
import type { ToolRecord } from '../store/records.js';
import type { ToolStore } from '../store/tool-store.js';
import { extract } from './extract.js';
import { executeHttp, previewHttpRequest, type HttpExecutorDeps } from './http/executor.js';
import type { HttpSend } from './http/transport.js';
import { RateLimiter } from './http/rate-limit.js';
import { InvokeFailure } from './invoke-error.js';
import { runLocal } from './local/run-local.js';
import type { LocalFunctionContext, LocalFunctionRegistry } from './local/registry.js';
import { Redactor } from './redact.js';
import { requireReady, type ToolResolver } from './resolver.js';

export interface InvokeRequest {
  args: Record<string, unknown>;
  trace?: boolean;
  timeoutMs?: number;
}

export interface InvokeHooks {
  before?: (info: { toolID: string; slug: string }) => void;
  after?: (info: { toolID: string; slug: string; ok: boolean; durationMs: number; attempts: number }) => void;
}

export interface InvokerDeps {
  store: ToolStore;
  resolver: ToolResolver;
  registry: LocalFunctionRegistry;
  secrets: SecretStore;
  settings: SettingsStore;
  clock: Clock;
  log: Logger;
  /** How HTTP tools send requests (undici in the app; any fetch in tests). */
  send: HttpSend;
  hooks?: InvokeHooks;
  /** For tests: instant retries. */
  sleep?: HttpExecutorDeps['sleep'];
}

export interface InvokeContext {
  signal: AbortSignal;
  askUser?: LocalFunctionContext['askUser'];
}

export interface Invoker {
  invoke(record: ToolRecord, request: InvokeRequest, context: InvokeContext): Promise<InvokeResult>;
  /** Problems with these arguments for this tool (argSchema), none when they are fine. */
  checkArgs(tool: ToolFile, args: Record<string, unknown>): ValidationIssue[];
  /** The request an HTTP tool would send for these arguments, secrets masked; null for local tools. */
  preview(tool: ToolFile, args: Record<string, unknown>): Promise<RequestPreview | null>;
  /** Runs a draft that is not in the store: no enabled check, no usage metrics. */
  tryDraft(record: ToolRecord, request: InvokeRequest, context: InvokeContext): Promise<InvokeResult>;
}

/**
 * The invocation pipeline: validate args → refuse disabled and unavailable
 * tools → dispatch (local function | HTTP executor) → extract → validate
 * output → `{ ok, value | error }` → usage metrics, after the answer.
 */
export function createInvoker(deps: InvokerDeps): Invoker {
  const argsAjv = createAjv({ strict: false, useDefaults: true, peoplesSchemas: true });
  const outputAjv = createAjv({ strict: false, peoplesSchemas: true });
  const argValidators = new WeakMap<object, Validator>();
  const outputValidators = new WeakMap<object, Validator>();
  const rateLimiter = new RateLimiter(() => deps.clock.now().getTime());
  const argumentNamesBySchema = new WeakMap<object, Set<string>>();
  const namesOf = (schema: Record<string, unknown>) => {
    let names = argumentNamesBySchema.get(schema);
    if (!names) argumentNamesBySchema.set(schema, (names = argumentNames(schema)));
    return names;
  };
  const now = () => deps.clock.now().getTime();

  function compiled(ajv: Ajv2020, cache: WeakMap<object, Validator>, schema: object): Validator {
    let validate = cache.get(schema);
    if (!validate) {
      validate = ajv.compile(schema);
      // The validator keeps working; ajv's own cache would keep every edit forever.
      ajv.removeSchema(schema);
      cache.set(schema, validate);
    }
    return validate;
  }

  function prepareArgs(tool: ToolFile, args: Record<string, unknown>): Record<string, unknown> {
    const copy = structuredClone(args);
    const validate = compiled(argsAjv, argValidators, tool.argSchema);
    if (!validate(copy)) {
      const issues = issuesFrom(validate.errors);
      throw new ToolbeltError('invalid_args', `Invalid arguments for ${tool.displayName}: ${describeIssues(issues)}`, { issues });
    }
    return copy;
  }

  function validateOutput(tool: ToolFile, value: unknown): ValidationIssue[] {
    if (tool.outputSchema === undefined || tool.outputSchema === true) return [];
    if (tool.outputSchema === false) return [{ path: '/', message: 'outputSchema is false: no value is valid' }];
    const validate = compiled(outputAjv, outputValidators, tool.outputSchema);
    return validate(value) ? [] : issuesFrom(validate.errors);
  }

  async function invoke(record: ToolRecord, request: InvokeRequest, context: InvokeContext, draft = false): Promise<InvokeResult> {
    // An invalid file is refused before its arguments are looked at (requireReady throws for it).
    const tool = record.kind === 'valid' ? record.tool : requireReady(deps.resolver.check(record)).record.tool;
    const args = prepareArgs(tool, request.args);
    // A draft in the tester runs whatever the switches say; everything else asks the resolver.
    requireReady(deps.resolver.check(record, { ignoreSwitches: draft }));

    deps.hooks?.before?.({ toolID: tool.toolID, slug: tool.slug });
    const started = now();
    let result: InvokeResult;
    let trace: TraceEntry[] | undefined;
    let attempts = 1;
    let redactor = new Redactor([]);
    try {
      let value: unknown;
      let meta: { status?: number; headers?: Record<string, string> } = {};
      if (tool.type === 'local') {
        const outcome = await runLocal(tool, args, {
          registry: deps.registry,
          signal: context.signal,
          timeoutMs: request.timeoutMs ?? 15_000,
          log: deps.log,
          now: () => deps.clock.now(),
          secrets: deps.secrets,
          readableFolders: deps.settings.get().readableFolders,
          askUser: context.askUser,
        });
        value = outcome.value;
        redactor = outcome.redactor;
      } else {
        const outcome = await executeHttp(
          {
            toolKey: `${tool.toolID}@${tool.modifiedAt}`,
            toolName: tool.displayName,
            impl: tool.impl,
            args,
            argumentNames: namesOf(tool.argSchema),
            allowedHosts: deps.settings.get().allowedHosts,
            resolveSecret: (name) => deps.secrets.resolve(name),
            timeoutMs: request.timeoutMs,
            signal: context.signal,
            trace: request.trace ?? false,
          },
          { send: deps.send, now, rateLimiter, sleep: deps.sleep },
        );
        attempts = outcome.attempts;
        trace = outcome.trace;
        redactor = outcome.redactor;
        if (outcome.failure) throw outcome.failure;
        const response = outcome.response!;
        meta = { status: response.status, headers: redactor.value(withoutCookies(response.headers)) };
        value = response.decoded;
        if (tool.impl.extractExpr) {
          const extracted = extract(tool.impl.extractExpr, response.decoded, response.text);
          if (!extracted.found && (tool.impl.errorMode ?? 'fail') === 'fail') {
            throw new InvokeFailure('extract_failed', `${tool.displayName}: extractExpr ${tool.impl.extractExpr} found nothing in the response.`, {
              status: response.status,
              snippet: redactor.text(response.text.slice(0, 300)),
            });
          }
          value = extracted.found ? extracted.value : null;
        }
      }
      value = redactor.value(value);
      const issues = value === null && tool.type === 'http' && tool.impl.errorMode === 'empty' ? [] : validateOutput(tool, value);
      if (issues.length) {
        throw new InvokeFailure('output_invalid', `${tool.displayName} returned a value that does not match its outputSchema: ${describeIssues(issues)}`, { issues });
      }
      result = { ok: true, value, ...meta, durationMs: now() - started, attempts };
    } catch (error) {
      if (!(error instanceof InvokeFailure)) throw error;
      const { status, snippet, host, issues } = error.extra;
      result = {
        ok: false,
        error: {
          code: error.code,
          message: redactor.text(error.message),
          ...(status !== undefined ? { status } : {}),
          ...(snippet !== undefined ? { snippet: redactor.text(snippet) } : {}),
          ...(host !== undefined ? { host } : {}),
          ...(issues ? { issues } : {}),
        },
        durationMs: now() - started,
        attempts,
      };
    }
    if (request.trace && trace) result.trace = trace;
    if (!draft) deps.store.usage.record(tool.toolID, deps.clock.now());
    deps.hooks?.after?.({ toolID: tool.toolID, slug: tool.slug, ok: result.ok, durationMs: result.durationMs, attempts: result.attempts });
    logCall(deps.log, tool, result, trace);
    return result;
  }

  return {
    invoke: (record, request, context) => invoke(record, request, context),
    tryDraft: (record, request, context) => invoke(record, request, context, true),
    checkArgs(tool, args) {
      const validate = compiled(argsAjv, argValidators, tool.argSchema);
      return validate(structuredClone(args)) ? [] : issuesFrom(validate.errors);
    },
    preview: (tool, args) =>
      tool.type === 'http'
        ? previewHttpRequest({ impl: tool.impl, args, argumentNames: namesOf(tool.argSchema), resolveSecret: (name) => deps.secrets.resolve(name) })
        : Promise.resolve(null),
  };
}

function withoutCookies(headers: Record<string, string>): Record<string, string> {
  const { 'set-cookie': _cookie, ...rest } = headers;
  return rest;
}

function logCall(log: Logger, tool: ToolFile, result: InvokeResult, trace: TraceEntry[] | undefined): void {
  const level = tool.type === 'http' ? (tool.impl.logging ?? 'info') : 'info';
  if (level === 'quiet') return;
  const fields = {
    tool: tool.slug,
    version: tool.version,
    ok: result.ok,
    durationMs: Math.round(result.durationMs),
    attempts: result.attempts,
    ...(result.ok ? {} : { code: result.error.code }),
  };
  // Trace entries are already masked; they are only logged when the tool asks.
  if (level === 'debug') log.info('tool call', { ...fields, trace });
  else log.info('tool call', fields);
}
