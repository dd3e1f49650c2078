import { Type, type Static } from '@sinclair/typebox';
import { ChatStreamEventSchema } from './schemas/chat.js';
import { McpbPreviewSchema } from './schemas/mcp-install.js';

/**
 * Everything the core pushes to the renderer, as one tagged union. Electron
 * sends it with webContents.send; the browser host streams it as
 * server-sent events. Later features add members here.
 */
export const HeartbeatEventSchema = Type.Object(
  {
    type: Type.Literal('app.heartbeat'),
    at: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

/** Bundles or tools changed, through the API or on disk (an editor, `git pull`). */
export const StoreChangedEventSchema = Type.Object(
  {
    type: Type.Literal('store.changed'),
    source: Type.Union([Type.Literal('api'), Type.Literal('disk')]),
    bundleIDs: Type.Array(Type.String()),
    toolIDs: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);

/** Progress of a chat run, or a change to a chat made by another window. */
export const ChatEventSchema = Type.Object(
  {
    type: Type.Literal('chat'),
    chatId: Type.String(),
    runId: Type.Optional(Type.String()),
    event: ChatStreamEventSchema,
  },
  { additionalProperties: false },
);

/** A chat was created, changed, or deleted (lists refresh). */
export const ChatsChangedEventSchema = Type.Object(
  { type: Type.Literal('chats.changed'), chatIds: Type.Array(Type.String()) },
  { additionalProperties: false },
);

/** A running tool asked the person something, or a question was answered or withdrawn. */
export const QuestionsChangedEventSchema = Type.Object({ type: Type.Literal('questions.changed') }, { additionalProperties: false });

/** Toolbelt's MCP server started, stopped, shares other bundles, a client came or went, or a client called a tool. */
export const McpShareChangedEventSchema = Type.Object({ type: Type.Literal('mcpShare.changed') }, { additionalProperties: false });

/** An MCP server said its prompts or resources changed (list_changed): what the window shows of them is read again. */
export const McpOfferingsChangedEventSchema = Type.Object({ type: Type.Literal('mcpServers.offeringsChanged'), server: Type.String() }, { additionalProperties: false });

/**
 * How far a run the tester asked for has got (a recipe's step, an MCP tool's
 * progress notification), for the run that named this `progressId`.
 */
export const ToolProgressEventSchema = Type.Object(
  {
    type: Type.Literal('tools.progress'),
    progressId: Type.String({ maxLength: 64 }),
    progress: Type.Number(),
    total: Type.Optional(Type.Number()),
    message: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);

/**
 * The desktop app was opened with something for the window to show: a
 * `toolbelt://` link (the window previews it and does nothing until the
 * person confirms), or an MCP bundle file, already previewed by the core.
 */
export const AppOpenedEventSchema = Type.Object(
  {
    type: Type.Literal('app.opened'),
    link: Type.Optional(Type.String({ maxLength: 70_000 })),
    mcpbPreview: Type.Optional(McpbPreviewSchema),
    /** What could not be opened, and why. */
    problem: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

export const CoreEventSchema = Type.Union([HeartbeatEventSchema, StoreChangedEventSchema, ChatEventSchema, ChatsChangedEventSchema, QuestionsChangedEventSchema, McpShareChangedEventSchema, McpOfferingsChangedEventSchema, ToolProgressEventSchema, AppOpenedEventSchema], {
  $id: 'CoreEvent',
});

export type CoreEvent = Static<typeof CoreEventSchema>;
export type ChatEvent = Static<typeof ChatEventSchema>;
export type CoreEventType = CoreEvent['type'];

export const CORE_EVENT_TYPES: readonly CoreEventType[] = ['app.heartbeat', 'store.changed', 'chat', 'chats.changed', 'questions.changed', 'mcpShare.changed', 'mcpServers.offeringsChanged', 'tools.progress', 'app.opened'];

export function isCoreEventType(value: unknown): value is CoreEventType {
  return typeof value === 'string' && (CORE_EVENT_TYPES as readonly string[]).includes(value);
}
