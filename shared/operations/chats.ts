import { HooksSchema } from '../schemas/hooks.js';
import { Type } from '@sinclair/typebox';
import { RunExchangesSchema } from '../schemas/raw-exchange.js';
import { defineOperation } from '../operation.js';
import { FileProblemSchema } from '../schemas/file-problem.js';
import { AnswerSchemaSchema, MessageAttachmentSchema, ChatSchema, ChatSummarySchema, ChatToolsSchema, OnToolErrorSchema, ProviderIdSchema, ToolDiscoverySchema, DiscoveryWhySchema, chatSettingsFields } from '../schemas/chat.js';
import { SalvagedChatSchema } from '../schemas/salvaged-chat.js';
import { ToolNameSchema, UuidV7Schema, VersionSchema } from '../schemas/ids.js';
import { PersonFileUploadSchema } from '../schemas/person-file.js';

const chatRoute = '/api/chats/:chatId';
const byChat = { chatId: UuidV7Schema };
const CallIdSchema = Type.String({ minLength: 1, maxLength: 200 });
const ArgsSchema = Type.Record(Type.String(), Type.Unknown());

export const chatsCreate = defineOperation({
  name: 'chats.create',
  summary: 'Start a chat with a provider, a model and the tools it may call.',
  params: Type.Object(
    {
      title: Type.Optional(chatSettingsFields.title),
      providerId: ProviderIdSchema,
      model: chatSettingsFields.model,
      system: chatSettingsFields.system,
      tools: Type.Optional(ChatToolsSchema),
      maxTurns: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 8 })),
      onToolError: Type.Optional(OnToolErrorSchema),
      toolErrorLimit: chatSettingsFields.toolErrorLimit,
      toolRuns: chatSettingsFields.toolRuns,
      parallelToolCalls: Type.Optional(Type.Boolean()),
      temperature: chatSettingsFields.temperature,
      answerSchema: chatSettingsFields.answerSchema,
    },
    { additionalProperties: false },
  ),
  result: ChatSchema,
  http: { method: 'POST', path: '/api/chats', successStatus: 201 },
});

export const chatsList = defineOperation({
  name: 'chats.list',
  summary: 'Every chat, newest activity first; chat files that cannot be read are listed apart with the reason.',
  params: Type.Object({}, { additionalProperties: false }),
  result: Type.Object(
    {
      chats: Type.Array(ChatSummarySchema),
      invalid: Type.Array(Type.Object({ id: Type.String(), ...FileProblemSchema.properties }, { additionalProperties: false })),
    },
    { additionalProperties: false },
  ),
  http: { method: 'GET', path: '/api/chats' },
});

export const chatsGet = defineOperation({
  name: 'chats.get',
  summary: 'A chat with its messages, tool calls, status and what it waits for.',
  params: Type.Object(byChat, { additionalProperties: false }),
  result: ChatSchema,
  http: { method: 'GET', path: chatRoute },
});

export const chatsSalvage = defineOperation({
  name: 'chats.salvage',
  summary: 'A chat file that cannot be opened, read as far as it goes (title, messages, tool calls) with the problem, to show read-only.',
  // Any name a chat file in the folder may have, valid chat or not.
  params: Type.Object({ chatId: Type.String({ pattern: '^[0-9a-f-]{36}$' }) }, { additionalProperties: false }),
  result: Type.Object({ problem: FileProblemSchema, chat: SalvagedChatSchema }, { additionalProperties: false }),
  http: { method: 'GET', path: `${chatRoute}/salvage` },
});

export const chatsUpdate = defineOperation({
  name: 'chats.update',
  summary: 'Rename or pin a chat, or change its provider, model, system prompt, tools and run settings (those not while it runs).',
  params: Type.Object(
    {
      ...byChat,
      title: Type.Optional(chatSettingsFields.title),
      providerId: Type.Optional(ProviderIdSchema),
      model: Type.Optional(chatSettingsFields.model),
      system: Type.Optional(Type.String({ maxLength: 100_000 })),
      tools: Type.Optional(ChatToolsSchema),
      maxTurns: Type.Optional(chatSettingsFields.maxTurns),
      onToolError: Type.Optional(OnToolErrorSchema),
      toolErrorLimit: chatSettingsFields.toolErrorLimit,
      toolRuns: chatSettingsFields.toolRuns,
      parallelToolCalls: Type.Optional(Type.Boolean()),
      /** null goes back to the server's default. */
      temperature: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 2 }), Type.Null()])),
      /** null: the answer is text again. */
      answerSchema: Type.Optional(Type.Union([AnswerSchemaSchema, Type.Null()])),
      pinned: Type.Optional(Type.Boolean()),
      /** Hooks for this chat's calls and turns only (Claude Code's shape); `{}` none. */
      hooks: Type.Optional(HooksSchema),
    },
    { additionalProperties: false },
  ),
  result: ChatSchema,
  http: { method: 'PATCH', path: chatRoute },
});

export const chatsDelete = defineOperation({
  name: 'chats.delete',
  summary: 'Delete a chat file (a run in progress is cancelled first).',
  params: Type.Object(byChat, { additionalProperties: false }),
  result: Type.Null(),
  http: { method: 'DELETE', path: chatRoute, successStatus: 204 },
});

export const chatsFile = defineOperation({
  name: 'chats.file',
  summary: "One of the person's files a message of the chat holds: its bytes as base64, to show it.",
  params: Type.Object({ ...byChat, sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }) }, { additionalProperties: false }),
  result: Type.Object({ name: Type.String(), mediaType: Type.String(), dataBase64: Type.String() }, { additionalProperties: false }),
  http: { method: 'GET', path: `${chatRoute}/files/:sha256` },
});

export const chatsSend = defineOperation({
  name: 'chats.send',
  summary: 'Add a user message and start a run; progress arrives as chat events.',
  params: Type.Object(
    {
      ...byChat,
      // Empty only when something is attached.
      content: Type.String({ maxLength: 1_000_000 }),
      /** Servers' resources and prompts, and the person's own files (`kind: "file"`, their bytes as base64). */
      attachments: Type.Optional(Type.Array(Type.Union([MessageAttachmentSchema, PersonFileUploadSchema]), { maxItems: 40 })),
      /** A message of the person's this one replaces: it and everything after it leave the chat (edit and resend). */
      replaces: Type.Optional(UuidV7Schema),
      /** This run's final answer must be JSON matching this schema (the chat's own schema otherwise). */
      answerSchema: Type.Optional(AnswerSchemaSchema),
    },
    { additionalProperties: false },
  ),
  result: Type.Object({ runId: UuidV7Schema, messageId: UuidV7Schema }, { additionalProperties: false }),
  // A message's files, as base64 (50 MB of files is 67 MB of it), beside the text.
  http: { method: 'POST', path: `${chatRoute}/messages`, successStatus: 202, maxBodyBytes: 72_000_000 },
});

const RunStartedSchema = Type.Object({ runId: UuidV7Schema }, { additionalProperties: false });

export const chatsRegenerate = defineOperation({
  name: 'chats.regenerate',
  summary: "Answer the person's last message again: what came after it leaves the chat and a new run starts.",
  params: Type.Object(byChat, { additionalProperties: false }),
  result: RunStartedSchema,
  http: { method: 'POST', path: `${chatRoute}/regenerate`, successStatus: 202 },
});

export const chatsContinue = defineOperation({
  name: 'chats.continue',
  summary: 'Give the model another turn with the chat as it is (after a stop, an error or the turn limit).',
  params: Type.Object(byChat, { additionalProperties: false }),
  result: RunStartedSchema,
  http: { method: 'POST', path: `${chatRoute}/continue`, successStatus: 202 },
});

export const chatsSearch = defineOperation({
  name: 'chats.search',
  summary: 'Chats whose title or messages contain the words, best first, each with the passage that matched.',
  params: Type.Object({ query: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
  result: Type.Object(
    {
      results: Type.Array(
        Type.Object(
          {
            chatId: UuidV7Schema,
            /** Where the words were found; a message's id when in one. */
            messageId: Type.Optional(UuidV7Schema),
            /** The words in context, at most about 160 characters. */
            snippet: Type.String(),
          },
          { additionalProperties: false },
        ),
      ),
    },
    { additionalProperties: false },
  ),
  http: { method: 'GET', path: '/api/chats/search' },
});

export const chatsCancel = defineOperation({
  name: 'chats.cancel',
  summary: 'Stop the run: the stream, running tools, and anything waiting for an answer.',
  params: Type.Object(byChat, { additionalProperties: false }),
  result: ChatSchema,
  http: { method: 'POST', path: `${chatRoute}/cancel` },
});

export const chatsApprove = defineOperation({
  name: 'chats.approve',
  summary: 'Answer an approval: allow (maybe with edited arguments), allow for the rest of the chat, or deny.',
  params: Type.Object(
    {
      ...byChat,
      callId: CallIdSchema,
      decision: Type.Union([Type.Literal('allow'), Type.Literal('allow_always'), Type.Literal('deny')]),
      args: Type.Optional(ArgsSchema),
      message: Type.Optional(Type.String({ maxLength: 10_000 })),
    },
    { additionalProperties: false },
  ),
  result: ChatSchema,
  http: { method: 'POST', path: `${chatRoute}/approvals/:callId` },
});

export const chatsAnswer = defineOperation({
  name: 'chats.answer',
  summary: "Answer the model's question; the answer becomes the ask-user tool's result.",
  params: Type.Object({ ...byChat, callId: CallIdSchema, answer: Type.String({ maxLength: 100_000 }) }, { additionalProperties: false }),
  result: ChatSchema,
  http: { method: 'POST', path: `${chatRoute}/answers/:callId` },
});

export const chatsRunTool = defineOperation({
  name: 'chats.runTool',
  summary: 'Run a tool from the "+" palette; the call and its result are kept in the chat.',
  params: Type.Object(
    {
      ...byChat,
      bundleID: UuidV7Schema,
      slug: ToolNameSchema,
      version: VersionSchema,
      args: ArgsSchema,
      shareWithModel: Type.Optional(Type.Boolean({ default: true })),
    },
    { additionalProperties: false },
  ),
  result: Type.Object({ messageId: UuidV7Schema, callId: Type.String() }, { additionalProperties: false }),
  http: { method: 'POST', path: `${chatRoute}/tool-runs`, successStatus: 202 },
});

export const chatsShareToolRun = defineOperation({
  name: 'chats.shareToolRun',
  summary: 'Decide whether the model sees a palette run on the next turn.',
  params: Type.Object({ ...byChat, messageId: UuidV7Schema, shareWithModel: Type.Boolean() }, { additionalProperties: false }),
  result: ChatSchema,
  http: { method: 'PATCH', path: `${chatRoute}/tool-runs/:messageId` },
});

export const chatsAppContext = defineOperation({
  name: 'chats.appContext',
  summary: "What a call's MCP App says the model should know of it now (its page, its selection); the model reads it with the call's result from the next turn. Empty text clears it.",
  params: Type.Object({ ...byChat, callId: Type.String({ minLength: 1, maxLength: 200 }), text: Type.String({ maxLength: 8_000 }) }, { additionalProperties: false }),
  result: Type.Null(),
  http: { method: 'PUT', path: `${chatRoute}/calls/:callId/app-context`, successStatus: 204 },
});

export const chatsRawExchanges = defineOperation({
  name: 'chats.rawExchanges',
  summary: 'What the model server was sent and answered in the chat’s last three runs (a long run’s last 16 requests), as it went over the wire (keys masked; kept in memory until Toolbelt closes).',
  params: Type.Object(byChat, { additionalProperties: false }),
  result: Type.Object({ runs: Type.Array(RunExchangesSchema) }, { additionalProperties: false }),
  http: { method: 'GET', path: `${chatRoute}/raw-exchanges` },
});

export const chatsContext = defineOperation({
  name: 'chats.context',
  summary: "Roughly how many tokens the chat's next request takes (messages as the model reads them, tool definitions) against what its model takes, and how much dropping old tool results would free.",
  params: Type.Object(
    {
      ...byChat,
      /** Tools as the person is choosing them, not yet saved (the tools panel): the figures as if the chat offered these. */
      tools: Type.Optional(ChatToolsSchema),
    },
    { additionalProperties: false },
  ),
  result: Type.Object(
    {
      messageTokens: Type.Integer({ minimum: 0 }),
      toolTokens: Type.Integer({ minimum: 0 }),
      /** What the model takes, when known (its server's list, or a well-known model). */
      contextTokens: Type.Optional(Type.Integer({ minimum: 1 })),
      droppable: Type.Object({ results: Type.Integer({ minimum: 0 }), tokens: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
      /** How the tools are offered: all at once, or found by search, and what each costs. */
      tools: Type.Object(
        {
          mode: Type.Union([Type.Literal('all'), Type.Literal('search')]),
          asked: ToolDiscoverySchema,
          reason: Type.String(),
          /** Why, as a code (the window says it in the person's language; `reason` says it in English). */
          why: DiscoveryWhySchema,
          /** Tools the chat reaches (picked, and in its whole bundles). */
          reachable: Type.Integer({ minimum: 0 }),
          /** Offered on the next turn (with search: pinned, tool_search and what searches loaded). */
          offered: Type.Integer({ minimum: 0 }),
          /** Loaded by the model's searches. */
          loaded: Type.Integer({ minimum: 0 }),
          /** Tokens of the definitions offered now, and of offering every tool. */
          offeredTokens: Type.Integer({ minimum: 0 }),
          allTokens: Type.Integer({ minimum: 0 }),
        },
        { additionalProperties: false },
      ),
    },
    { additionalProperties: false },
  ),
  http: { method: 'GET', path: `${chatRoute}/context` },
});

export const chatsDropOldResults = defineOperation({
  name: 'chats.dropOldResults',
  summary: "Take every tool result before the latest turn out of what the model reads (each becomes one line naming it and its size); the chat keeps them.",
  params: Type.Object(byChat, { additionalProperties: false }),
  result: ChatSchema,
  http: { method: 'POST', path: `${chatRoute}/drop-old-results` },
});
