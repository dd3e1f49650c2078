import { SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { InvokeResult } from '../../shared/schemas/invocation.js';
import type { ToolFile } from '../../shared/schemas/tool.js';
import { inBackground } from '../common/background.js';
import type { Logger } from '../log.js';

/** A call as a span reads it: no arguments or answers (they may hold what the person keeps to themselves). */
export interface SpannedCall {
  tool: ToolFile;
  bundleSlug?: string;
  /** Who called: `person`, `model`, `agent`, `mcp-client`, … */
  callerKind?: string;
  sessionId?: string;
  startedAt: number;
  result: InvokeResult;
}

export interface ToolSpans {
  /** Whether calls go anywhere now: when not, nothing about a call needs to be gathered. */
  wanted(): boolean;
  record(call: SpannedCall): void;
  /** Sends what is waiting (tests, before a restart of the exporter) and stops. */
  close(): Promise<void>;
}

/** How long finished spans wait to go out together. */
const EXPORT_DELAY_MS = 1_000;

/**
 * Every tool call as an OpenTelemetry span, sent over OTLP/HTTP to the endpoint the person set, with the official
 * SDK: `execute_tool <name>` spans as the GenAI semantic conventions name them. No endpoint, nothing is made. A new
 * endpoint starts a new exporter; the old one sends what it holds first.
 */
export function createToolSpans(deps: { endpoint: () => string | undefined; app: { name: string; version: string }; log: Logger }): ToolSpans {
  let current: { endpoint: string; provider: BasicTracerProvider; tracer: Tracer } | null = null;

  const stop = (provider: BasicTracerProvider) => provider.shutdown();
  function tracer(): Tracer | null {
    const endpoint = deps.endpoint();
    if (current && current.endpoint === endpoint) return current.tracer;
    if (!current && !endpoint) return null;
    const old = current;
    if (old) inBackground(stop(old.provider), (error) => deps.log.warn('the old OpenTelemetry exporter did not stop cleanly', { error: String(error) }));
    current = null;
    if (!endpoint) return null;
    const exporter = new OTLPTraceExporter({ url: endpoint });
    const provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': deps.app.name.toLowerCase(), 'service.version': deps.app.version }),
      spanProcessors: [new BatchSpanProcessor(exporter, { scheduledDelayMillis: EXPORT_DELAY_MS })],
    });
    current = { endpoint, provider, tracer: provider.getTracer('toolbelt.tools', deps.app.version) };
    return current.tracer;
  }

  return {
    wanted: () => !!deps.endpoint(),
    record(call) {
      const spans = tracer();
      if (!spans) return;
      const { tool, result } = call;
      const span = spans.startSpan(`execute_tool ${tool.slug}`, {
        kind: SpanKind.INTERNAL,
        startTime: call.startedAt,
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': tool.slug,
          'gen_ai.tool.description': tool.description.slice(0, 1_000),
          // The conventions' kinds: an MCP server's tool is an extension the agent reaches; the rest run here.
          'gen_ai.tool.type': tool.type === 'mcp' ? 'extension' : 'function',
          ...(call.sessionId ? { 'gen_ai.conversation.id': call.sessionId } : {}),
          'toolbelt.tool.type': tool.type,
          'toolbelt.tool.version': tool.version,
          ...(call.bundleSlug ? { 'toolbelt.bundle': call.bundleSlug } : {}),
          ...(call.callerKind ? { 'toolbelt.caller': call.callerKind } : {}),
          'toolbelt.attempts': result.attempts,
        },
      });
      if (!result.ok) {
        span.setAttribute('error.type', result.error.code);
        // The code, not the message: a message may quote the request, and with it the call's arguments.
        span.setStatus({ code: SpanStatusCode.ERROR, message: result.error.code });
      }
      span.end(call.startedAt + result.durationMs);
    },
    async close() {
      const provider = current?.provider;
      current = null;
      if (provider) await stop(provider);
    },
  };
}
