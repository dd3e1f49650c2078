import { HookRunSchema, HooksSchema } from './hooks.js';
import { PersonFileSchema } from './person-file.js';
import { Type, type Static } from '@sinclair/typebox';
import { TimestampSchema, UuidV7Schema } from './ids.js';
import { AgentStepSchema } from './agent-step.js';
import { InvokeErrorSchema, OutputMismatchSchema, ResultContentSchema, TraceEntrySchema } from './invocation.js';
import { AttachedImageSchema } from './attached-image.js';
import { McpTaskReferenceSchema } from './mcp.js';
import { ToolRefSchema, ApprovalBySchema, AnswerSchemaSchema, chatSettingsFields } from './chat-tools.js';

// The tools part of a chat lives in chat-tools.ts; everything a chat is, is read from here.
export * from './chat-tools.js';


/** A question a call begins with, for the person (the ask-user built-in). */
export const CallQuestionSchema = Type.Object({ text: Type.String(), choices: Type.Optional(Type.Array(Type.String())) }, { additionalProperties: false });
export type CallQuestion = Static<typeof CallQuestionSchema>;

export const ToolCallStatusSchema = Type.Union([
  /** Decided to run, not started yet. */
  Type.Literal('queued'),
  Type.Literal('awaiting_approval'),
  Type.Literal('awaiting_user'),
  Type.Literal('running'),
  Type.Literal('succeeded'),
  Type.Literal('failed'),
  Type.Literal('denied'),
  Type.Literal('cancelled'),
]);
export type ToolCallStatus = Static<typeof ToolCallStatusSchema>;

export const ToolCallResultSchema = Type.Union([
  Type.Object(
    {
      ok: Type.Literal(true),
      value: Type.Unknown(),
      content: Type.Optional(ResultContentSchema),
      status: Type.Optional(Type.Integer()),
      /** The answer does not match the tool's outputSchema; its bundle takes such answers with a warning. */
      outputMismatch: Type.Optional(OutputMismatchSchema),
      durationMs: Type.Number({ minimum: 0 }),
      attempts: Type.Integer({ minimum: 0 }),
      trace: Type.Optional(Type.Array(TraceEntrySchema)),
      steps: Type.Optional(Type.Array(AgentStepSchema, { maxItems: 200 })),
      /** The hooks that ran around the call, and what they gave the model to read. */
      hooks: Type.Optional(Type.Array(HookRunSchema, { maxItems: 400 })),
      hookContext: Type.Optional(Type.String({ maxLength: 20_001 })),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      ok: Type.Literal(false),
      error: InvokeErrorSchema,
      durationMs: Type.Number({ minimum: 0 }),
      attempts: Type.Integer({ minimum: 0 }),
      trace: Type.Optional(Type.Array(TraceEntrySchema)),
      steps: Type.Optional(Type.Array(AgentStepSchema, { maxItems: 200 })),
      /** The hooks that ran around the call, and what they gave the model to read. */
      hooks: Type.Optional(Type.Array(HookRunSchema, { maxItems: 400 })),
      hookContext: Type.Optional(Type.String({ maxLength: 20_001 })),
    },
    { additionalProperties: false },
  ),
]);
export type ToolCallResult = Static<typeof ToolCallResultSchema>;

/** The request an HTTP tool would send, secrets shown as •••, for approval. */
export const RequestPreviewSchema = Type.Object(
  {
    method: Type.String(),
    url: Type.String(),
    headers: Type.Record(Type.String(), Type.String()),
    body: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type RequestPreview = Static<typeof RequestPreviewSchema>;

/** How far a running tool says it is: `progress` of `total` when it knows the total, with its words. */
export const ToolProgressSchema = Type.Object(
  { progress: Type.Number(), total: Type.Optional(Type.Number()), message: Type.Optional(Type.String({ maxLength: 500 })) },
  { additionalProperties: false },
);
export type ToolProgress = Static<typeof ToolProgressSchema>;

const CalledToolSchema = Type.Object({ ...ToolRefSchema.properties, displayName: Type.String(), bundleName: Type.String() }, { additionalProperties: false });

export const ToolCallSchema = Type.Object(
  {
    /** The provider's call id (or one we made when it sent none). */
    id: Type.String({ minLength: 1, maxLength: 200 }),
    /** The name the model used. */
    name: Type.String({ maxLength: 200 }),
    /** The tool it maps to; absent when the name maps to none. */
    tool: Type.Optional(CalledToolSchema),
    args: Type.Record(Type.String(), Type.Unknown()),
    /** The model's raw argument text when it was not a JSON object. */
    rawArgs: Type.Optional(Type.String()),
    /** An opaque token the provider wants back with the call (Gemini's thought signature). */
    signature: Type.Optional(Type.String({ maxLength: 200_000 })),
    status: ToolCallStatusSchema,
    /** Why the call waits for approval, in words. */
    approvalReason: Type.Optional(Type.String()),
    /** Whose setting asks first, as a code the window says in the person's language (files before it have words only). */
    approvalBy: Type.Optional(ApprovalBySchema),
    /** The question the call began with, and once given, the person's answer (the tool then runs and gets it). */
    question: Type.Optional(Type.Object({ ...CallQuestionSchema.properties, answer: Type.Optional(Type.String({ maxLength: 100_000 })) }, { additionalProperties: false })),
    preview: Type.Optional(RequestPreviewSchema),
    result: Type.Optional(ToolCallResultSchema),
    /** A deny reason, an edited-arguments note: what the person said. */
    note: Type.Optional(Type.String()),
    /** What the tool's MCP App last said the model should know of it (ui/update-model-context), read with the result. */
    appContext: Type.Optional(Type.String({ maxLength: 8_000 })),
    startedAt: Type.Optional(TimestampSchema),
    finishedAt: Type.Optional(TimestampSchema),
    /** An MCP tool that runs as a task: where its server keeps it, followed again after a crash (see McpTaskReferenceSchema). */
    task: Type.Optional(McpTaskReferenceSchema),
    /** What a running call last reported (MCP progress); gone once it settles. */
    progress: Type.Optional(ToolProgressSchema),
    /** The person dropped this result from what the model reads (to make room); the chat keeps it. */
    contextDropped: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ToolCall = Static<typeof ToolCallSchema>;

/** A server's resource or prompt the person attached to a message; the model reads its text after theirs, and sees its pictures. */
export const MessageAttachmentSchema = Type.Object(
  {
    kind: Type.Union([Type.Literal('resource'), Type.Literal('prompt')]),
    server: Type.String({ maxLength: 64 }),
    /** The resource's URI, or the prompt's name. */
    ref: Type.String({ minLength: 1, maxLength: 4_096 }),
    title: Type.String({ maxLength: 1_000 }),
    text: Type.String({ maxLength: 1_000_000 }),
    /** The prompt's or resource's pictures, sent as images to models that see them (the text names each). */
    images: Type.Optional(Type.Array(AttachedImageSchema, { minItems: 1, maxItems: 8 })),
  },
  { additionalProperties: false },
);
export type MessageAttachment = Static<typeof MessageAttachmentSchema>;

export const UserMessageSchema = Type.Object(
  {
    id: UuidV7Schema,
    role: Type.Literal('user'),
    content: Type.String(),
    attachments: Type.Optional(Type.Array(MessageAttachmentSchema, { maxItems: 20 })),
    /** The person's own files (pictures, PDFs, text), kept in the data folder by their SHA-256. */
    files: Type.Optional(Type.Array(PersonFileSchema, { maxItems: 20 })),
    /** What the person's UserPromptSubmit hooks added for the model to read with this message. */
    hookContext: Type.Optional(Type.String({ maxLength: 20_001 })),
    /** The UserPromptSubmit hooks that ran on it, each with what it decided. */
    hooks: Type.Optional(Type.Array(HookRunSchema, { maxItems: 400 })),
    createdAt: TimestampSchema,
  },
  { additionalProperties: false },
);

export const AssistantMessageSchema = Type.Object(
  {
    id: UuidV7Schema,
    role: Type.Literal('assistant'),
    content: Type.String(),
    toolCalls: Type.Array(ToolCallSchema),
    model: Type.String(),
    createdAt: TimestampSchema,
    /** Set once the model's turn has ended. */
    finishReason: Type.Optional(Type.String()),
    /** The final answer as JSON, checked against the answer schema the run asked for. */
    answer: Type.Optional(Type.Object({ value: Type.Unknown() }, { additionalProperties: false })),
    /** Why this answer was not the JSON the run asked for (the model was then asked again, or the run stopped). */
    answerProblem: Type.Optional(Type.String({ maxLength: 2_000 })),
    /** Blocks the provider ran on its own side in this turn (Anthropic's tool search: the query, the tools it loaded), sent back to it as they came. */
    serverBlocks: Type.Optional(Type.Array(Type.Record(Type.String(), Type.Unknown()), { maxItems: 64 })),
    /** The Stop hooks that ran as the model said it was done with this message, each with what it decided. */
    hooks: Type.Optional(Type.Array(HookRunSchema, { maxItems: 400 })),
  },
  { additionalProperties: false },
);

/** A tool the person ran from the "+" palette. */
export const ToolRunMessageSchema = Type.Object(
  {
    id: UuidV7Schema,
    role: Type.Literal('tool-run'),
    call: ToolCallSchema,
    /** Whether the model sees the call and its result on the next turn. */
    shareWithModel: Type.Boolean(),
    createdAt: TimestampSchema,
  },
  { additionalProperties: false },
);

export const ChatMessageSchema = Type.Union([UserMessageSchema, AssistantMessageSchema, ToolRunMessageSchema]);
export type UserMessage = Static<typeof UserMessageSchema>;
export type AssistantMessage = Static<typeof AssistantMessageSchema>;
export type ToolRunMessage = Static<typeof ToolRunMessageSchema>;
export type ChatMessage = Static<typeof ChatMessageSchema>;

export const ChatStatusSchema = Type.Union([
  Type.Literal('idle'),
  Type.Literal('running'),
  Type.Literal('awaiting_approval'),
  Type.Literal('awaiting_user'),
  Type.Literal('error'),
]);
export type ChatStatus = Static<typeof ChatStatusSchema>;

export const PendingItemSchema = Type.Object(
  {
    callId: Type.String(),
    messageId: UuidV7Schema,
    kind: Type.Union([Type.Literal('approval'), Type.Literal('question')]),
    tool: Type.Object({ name: Type.String(), displayName: Type.String(), bundleName: Type.String(), ...ToolRefSchema.properties }, { additionalProperties: false }),
    args: Type.Record(Type.String(), Type.Unknown()),
    reason: Type.Optional(Type.String()),
    approvalBy: Type.Optional(ApprovalBySchema),
    question: Type.Optional(Type.String()),
    choices: Type.Optional(Type.Array(Type.String())),
    preview: Type.Optional(RequestPreviewSchema),
  },
  { additionalProperties: false },
);
export type PendingItem = Static<typeof PendingItemSchema>;

export const RunOutcomeSchema = Type.Object(
  {
    runId: UuidV7Schema,
    reason: Type.String(),
    message: Type.Optional(Type.String()),
    error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: false })),
    at: TimestampSchema,
  },
  { additionalProperties: false },
);

export const ChatSchema = Type.Object(
  {
    id: UuidV7Schema,
    ...chatSettingsFields,
    status: ChatStatusSchema,
    pending: Type.Array(PendingItemSchema),
    messages: Type.Array(ChatMessageSchema),
    /** Tools the person allowed for the rest of this chat ("bundleID/slug/version"). */
    alwaysAllowed: Type.Array(Type.String()),
    /** What the person's SessionStart hooks gave the model when the chat was made (in its system prompt). */
    hookContext: Type.Optional(Type.String({ maxLength: 20_001 })),
    /** The SessionStart hooks that ran as the chat was made, each with what it decided. */
    startHooks: Type.Optional(Type.Array(HookRunSchema, { maxItems: 400 })),
    /** The person's hooks for this chat only: they run after those in Settings, for its calls and its turns. */
    hooks: Type.Optional(HooksSchema),
    /** The run going on or suspended now. */
    run: Type.Optional(
      Type.Object(
        {
          runId: UuidV7Schema,
          /** `model`: a conversation turn; `tool`: a tool the person ran from the palette. */
          kind: Type.Union([Type.Literal('model'), Type.Literal('tool')]),
          turn: Type.Integer({ minimum: 0 }),
          startedAt: TimestampSchema,
          /** This run's answer schema, when the message that started it asked for one (else the chat's). */
          answerSchema: Type.Optional(AnswerSchemaSchema),
          /** The model was already asked once more for an answer that matches the schema. */
          answerRetried: Type.Optional(Type.Boolean()),
          /** Times a Stop hook sent the model back to work in this run (at most MAX_STOP_CONTINUES). */
          stopContinues: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
        },
        { additionalProperties: false },
      ),
    ),
    /** How the last run ended. */
    lastRun: Type.Optional(RunOutcomeSchema),
    /** Kept at the top of the chat list. */
    pinned: Type.Optional(Type.Boolean()),
    /** Tools the model found with tool_search, in the order found: offered after the fixed set from then on. */
    loadedTools: Type.Optional(Type.Array(ToolRefSchema, { maxItems: 1_000 })),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false },
);
export type Chat = Static<typeof ChatSchema>;

export const ChatSummarySchema = Type.Object(
  {
    id: UuidV7Schema,
    title: Type.String(),
    providerId: Type.String(),
    model: Type.String(),
    status: ChatStatusSchema,
    messageCount: Type.Integer({ minimum: 0 }),
    pinned: Type.Boolean(),
    createdAt: TimestampSchema,
    updatedAt: TimestampSchema,
  },
  { additionalProperties: false },
);
export type ChatSummary = Static<typeof ChatSummarySchema>;

export const FinishReasonSchema = Type.Union((['stop', 'max_turns', 'length', 'cancelled', 'tool_error', 'suspended', 'error'] as const).map((reason) => Type.Literal(reason)));
export type FinishReason = Static<typeof FinishReasonSchema>;

/** What a run streams, in order. `messageId` is the assistant or tool-run message it belongs to. */
export const ChatStreamEventSchema = Type.Union([
  Type.Object({ type: Type.Literal('message'), message: ChatMessageSchema }, { additionalProperties: false }),
  /** This message and every one after it left the chat (an edited message, an answer asked for again). */
  Type.Object({ type: Type.Literal('rewind'), fromMessageId: Type.String() }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('text-delta'), messageId: Type.String(), text: Type.String() }, { additionalProperties: false }),
  Type.Object(
    {
      type: Type.Literal('tool-call-delta'),
      messageId: Type.String(),
      callId: Type.String(),
      name: Type.String(),
      argsDelta: Type.String(),
      /** The tool the name maps to, when it maps to one: a window can show the call (its app) while its arguments are written. */
      tool: Type.Optional(CalledToolSchema),
    },
    { additionalProperties: false },
  ),
  Type.Object({ type: Type.Literal('tool-call'), messageId: Type.String(), call: ToolCallSchema }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('tool-result'), messageId: Type.String(), call: ToolCallSchema }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('approval-requested'), pending: PendingItemSchema }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('ask-user'), pending: PendingItemSchema }, { additionalProperties: false }),
  Type.Object(
    { type: Type.Literal('usage'), inputTokens: Type.Optional(Type.Integer()), outputTokens: Type.Optional(Type.Integer()) },
    { additionalProperties: false },
  ),
  Type.Object(
    { type: Type.Literal('finish'), reason: FinishReasonSchema, message: Type.Optional(Type.String()), status: ChatStatusSchema },
    { additionalProperties: false },
  ),
  Type.Object({ type: Type.Literal('error'), code: Type.String(), message: Type.String() }, { additionalProperties: false }),
]);
export type ChatStreamEvent = Static<typeof ChatStreamEventSchema>;
