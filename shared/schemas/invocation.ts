import { HookRunSchema } from './hooks.js';
import { Type, type Static } from '@sinclair/typebox';
import { AgentStepSchema } from './agent-step.js';

const HeaderMap = Type.Record(Type.String(), Type.String());

export const TraceEntrySchema = Type.Object(
  {
    attempt: Type.Integer({ minimum: 1 }),
    /** An OAuth token request made before the attempt it belongs to. */
    step: Type.Optional(Type.Literal('token')),
    startedAt: Type.String({ format: 'date-time' }),
    durationMs: Type.Number({ minimum: 0 }),
    request: Type.Object(
      {
        method: Type.String(),
        url: Type.String(),
        headers: HeaderMap,
        bodyPreview: Type.Optional(Type.String()),
      },
      { additionalProperties: false },
    ),
    redirects: Type.Optional(Type.Array(Type.Object({ status: Type.Integer(), location: Type.String() }, { additionalProperties: false }))),
    response: Type.Optional(
      Type.Object(
        {
          status: Type.Integer(),
          headers: HeaderMap,
          size: Type.Integer({ minimum: 0 }),
          bodyPreview: Type.String(),
          truncated: Type.Boolean(),
        },
        { additionalProperties: false },
      ),
    ),
    error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: false })),
    retryReason: Type.Optional(Type.String()),
    delayBeforeNextMs: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);
export type TraceEntry = Static<typeof TraceEntrySchema>;

const IssueListSchema = Type.Array(Type.Object({ path: Type.String(), message: Type.String() }, { additionalProperties: false }), { maxItems: 200 });

/** An answer taken though its tool's outputSchema refuses it (its bundle says so): what does not match. */
export const OutputMismatchSchema = Type.Object({ message: Type.String(), issues: IssueListSchema }, { additionalProperties: false });

export const InvokeErrorSchema = Type.Object(
  {
    code: Type.String(),
    message: Type.String(),
    status: Type.Optional(Type.Integer()),
    snippet: Type.Optional(Type.String()),
    /** For host_not_allowed: the allowlist entry that would let the call through. */
    host: Type.Optional(Type.String()),
    issues: Type.Optional(IssueListSchema),
    /** output_invalid, when a trace was asked for (the tester): the whole answer the schema refused, secrets masked. */
    answer: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);

/** One JSON-RPC message of an MCP call, as sent or received (the tester's trace for MCP tools). */
export const RpcMessageSchema = Type.Object(
  {
    direction: Type.Union([Type.Literal('sent'), Type.Literal('received')]),
    /** Milliseconds since the call started. */
    atMs: Type.Number({ minimum: 0 }),
    /** The message as JSON text, cut at 16 KB. */
    text: Type.String(),
    truncated: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type RpcMessage = Static<typeof RpcMessageSchema>;

/**
 * An MCP tool that answered with structured content (the value) and content
 * blocks that say more than it (a picture, a note): the blocks, which are
 * what a model reads and the card draws. Absent when the blocks only repeat
 * the value as JSON text.
 */
export const ResultContentSchema = Type.Array(Type.Unknown(), { minItems: 1, maxItems: 1000 });

/** What a recipe's trial run leaves for running it again from a step. */
export const RecipeRunSchema = Type.Object(
  { results: Type.Record(Type.String(), Type.Unknown()), failedStep: Type.Optional(Type.String({ maxLength: 64 })) },
  { additionalProperties: false },
);
export type RecipeRun = Static<typeof RecipeRunSchema>;

/** Run a recipe again from one of its steps: the steps before it are not run; their results are these. */
export const RecipeResumeSchema = Type.Object(
  { from: Type.String({ minLength: 1, maxLength: 64 }), results: Type.Record(Type.String(), Type.Unknown()) },
  { additionalProperties: false },
);
export type RecipeResume = Static<typeof RecipeResumeSchema>;

export const ScriptLogLineSchema = Type.Object(
  { level: Type.Union([Type.Literal('log'), Type.Literal('warn'), Type.Literal('error')]), text: Type.String({ maxLength: 2_000 }) },
  { additionalProperties: false },
);
export type ScriptLogLine = Static<typeof ScriptLogLineSchema>;

const common = {
  durationMs: Type.Number({ minimum: 0 }),
  attempts: Type.Integer({ minimum: 0 }),
  trace: Type.Optional(Type.Array(TraceEntrySchema)),
  /** MCP tools, when a trace is asked for: the JSON-RPC messages of the call. */
  rpc: Type.Optional(Type.Array(RpcMessageSchema, { maxItems: 100 })),
  /** Asked to keep the run in the tester history and could not: why (the run itself happened). */
  notKept: Type.Optional(Type.String()),
  /** Agent tools: what the agent's model said and called, turn by turn. */
  steps: Type.Optional(Type.Array(AgentStepSchema, { maxItems: 200 })),
  /** Script tools: what the script wrote to its console. */
  logs: Type.Optional(Type.Array(ScriptLogLineSchema, { maxItems: 200 })),
  /** Script tools: the memory the script's runtime held at its end, in bytes. */
  memoryBytes: Type.Optional(Type.Integer({ minimum: 0 })),
  /** Recipe tools, when a trace is asked for: each finished step's result by its id, and the step that failed, so the tester can run again from it. */
  recipe: Type.Optional(RecipeRunSchema),
  /** The hooks that ran before and after the call, each with what it decided. */
  hooks: Type.Optional(Type.Array(HookRunSchema, { maxItems: 400 })),
  /** What hooks gave the model to read with the result (`additionalContext`, a PostToolUse block's reason). */
  hookContext: Type.Optional(Type.String({ maxLength: 20_001 })),
};

/** The outcome of a call: a value, or an error as data. Never both. */
export const InvokeResultSchema = Type.Union([
  Type.Object(
    {
      ok: Type.Literal(true),
      value: Type.Unknown(),
      content: Type.Optional(ResultContentSchema),
      status: Type.Optional(Type.Integer()),
      headers: Type.Optional(HeaderMap),
      /** The answer does not match the tool's outputSchema, and its bundle takes such answers with a warning: what does not. */
      outputMismatch: Type.Optional(OutputMismatchSchema),
      ...common,
    },
    { additionalProperties: false },
  ),
  Type.Object({ ok: Type.Literal(false), error: InvokeErrorSchema, ...common }, { additionalProperties: false }),
]);
export type InvokeResult = Static<typeof InvokeResultSchema>;
