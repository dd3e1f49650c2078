import { newUuidV7 } from '../common/uuid-v7.js';
import { refuseBadHooks } from '../common/hook-checks.js';
import { ToolbeltError } from '../../shared/errors.js';
import { allCalls } from '../../shared/chat/chat-calls.js';
import type { Handlers } from '../api/dispatcher.js';
import type { EventBus } from '../api/event-bus.js';
import type { Clock } from '../common/clock.js';
import type { ProviderStore } from '../providers/provider-store.js';
import type { ToolStore } from '../store/tool-store.js';
import { DEFAULT_TITLE, type ChatEngine } from './chat-engine.js';
import { refuseBusy } from './run-book.js';
import { summaryOf, type ChatFiles } from './chat-files.js';
import { checkSelection } from '../tools/exposure.js';
import { searchChats } from './chat-search.js';
import { requireUsableAnswerSchema } from '../loop/structured-answer.js';
import { blankChat, pendingOf } from '../../shared/chat/chat-calls.js';
import { PERSON_FILE_LIMITS } from '../../shared/schemas/person-file.js';
import { filesOf } from './person-files.js';

type ChatOperation =
  | 'chats.create' | 'chats.list' | 'chats.get' | 'chats.update' | 'chats.delete' | 'chats.send' | 'chats.file'
  | 'chats.cancel' | 'chats.approve' | 'chats.answer' | 'chats.runTool' | 'chats.shareToolRun' | 'chats.appContext'
  | 'chats.regenerate' | 'chats.continue' | 'chats.search' | 'chats.salvage' | 'chats.rawExchanges';

/** Chats as records (create, list, update, delete) and the engine's runs behind the same routes. */
export function chatHandlers(deps: {
  files: ChatFiles;
  engine: ChatEngine;
  providers: ProviderStore;
  store: ToolStore;
  events: EventBus;
  clock: Clock;
}): Pick<Handlers, ChatOperation> {
  const { files, engine } = deps;
  const now = () => deps.clock.now().toISOString();
  const changed = (chatId: string) => deps.events.publish({ type: 'chats.changed', chatIds: [chatId] });

  return {
    'chats.create': async (params) => {
      await deps.providers.require(params.providerId);
      const tools = params.tools ?? { mode: 'auto', selected: [] };
      await checkSelection(tools, deps.store);
      const { title, system, maxTurns, onToolError, toolErrorLimit, toolRuns, parallelToolCalls, providerId, model, temperature, answerSchema } = params;
      requireUsableAnswerSchema(answerSchema);
      const id = newUuidV7();
      const chat = blankChat({
        id,
        ...(await engine.sessionStartHooks(id)),
        title: title ?? DEFAULT_TITLE,
        providerId,
        model,
        tools,
        createdAt: now(),
        ...(system ? { system } : {}),
        ...(maxTurns !== undefined ? { maxTurns } : {}),
        ...(onToolError ? { onToolError } : {}),
        ...(toolErrorLimit !== undefined ? { toolErrorLimit } : {}),
        ...(toolRuns ? { toolRuns } : {}),
        ...(parallelToolCalls !== undefined ? { parallelToolCalls } : {}),
        ...(temperature !== undefined ? { temperature } : {}),
        ...(answerSchema ? { answerSchema } : {}),
      });
      await files.add(chat);
      changed(chat.id);
      return chat;
    },
    'chats.list': async () => ({
      chats: (await files.all())
        .map(summaryOf)
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id)),
      invalid: files.invalidFiles(),
    }),
    // What it waits for may have changed since the last write (a call asked for approval mid-turn).
    'chats.get': async ({ chatId }) => {
      const chat = await files.load(chatId);
      return { ...chat, pending: pendingOf(chat) };
    },
    'chats.salvage': ({ chatId }) => files.salvage(chatId),
    'chats.update': async ({ chatId, ...patch }) => {
      const chat = await files.load(chatId);
      // Its name and place in the list can change while it runs; what a run reads cannot.
      const onlyLabels = Object.keys(patch).every((key) => key === 'title' || key === 'pinned');
      if (!onlyLabels) refuseBusy(chat);
      if (patch.providerId !== undefined) await deps.providers.require(patch.providerId);
      if (patch.tools !== undefined) await checkSelection(patch.tools, deps.store);
      const { system, temperature, pinned, answerSchema, hooks, ...rest } = patch;
      requireUsableAnswerSchema(answerSchema);
      if (hooks) refuseBadHooks(hooks);
      Object.assign(chat, rest);
      if (hooks && Object.keys(hooks).length === 0) delete chat.hooks;
      else if (hooks) chat.hooks = hooks;
      if (answerSchema === null) delete chat.answerSchema;
      else if (answerSchema !== undefined) chat.answerSchema = answerSchema;
      if (system !== undefined) {
        if (system === '') delete chat.system;
        else chat.system = system;
      }
      if (temperature === null) delete chat.temperature;
      else if (temperature !== undefined) chat.temperature = temperature;
      if (pinned === false) delete chat.pinned;
      else if (pinned) chat.pinned = true;
      chat.updatedAt = now();
      await files.save(chat);
      changed(chat.id);
      return chat;
    },
    'chats.rawExchanges': async ({ chatId }) => {
      await files.load(chatId);
      return { runs: engine.exchanges.runsOf(chatId) };
    },
    'chats.delete': async ({ chatId }) => {
      const chat = await files.load(chatId);
      if (chat.status === 'running' && !engine.isRunning(chatId)) {
        throw new ToolbeltError('chat_busy', 'This chat is running in another Toolbelt window; stop it there first.');
      }
      await engine.stop(chatId);
      await files.remove(chatId);
      engine.exchanges.forget(chatId);
      await engine.personFiles.forget(filesOf(chat), await files.all());
      changed(chatId);
      return null;
    },
    'chats.send': ({ chatId, content, attachments = [], replaces, answerSchema }) => {
      requireUsableAnswerSchema(answerSchema);
      const uploads = attachments.filter((item) => item.kind === 'file');
      const others = attachments.filter((item) => item.kind !== 'file');
      if (others.length > 20 || uploads.length > PERSON_FILE_LIMITS.files) {
        throw new ToolbeltError('payload_too_large', `A message takes at most 20 resources and prompts and ${PERSON_FILE_LIMITS.files} files.`);
      }
      return engine.send(chatId, content, others, replaces, answerSchema, uploads);
    },
    'chats.file': async ({ chatId, sha256 }) => {
      const chat = await files.load(chatId);
      const file = chat.messages.flatMap((message) => (message.role === 'user' ? (message.files ?? []) : [])).find((each) => each.sha256 === sha256);
      if (!file) throw new ToolbeltError('not_found', 'No message of this chat holds that file.');
      const bytes = await engine.personFiles.read(sha256);
      return { name: file.name, mediaType: file.mediaType, dataBase64: bytes.toString('base64') };
    },
    'chats.regenerate': ({ chatId }) => engine.regenerate(chatId),
    'chats.continue': ({ chatId }) => engine.continueRun(chatId),
    'chats.search': async ({ query }) => ({ results: searchChats(await files.all(), query) }),
    'chats.cancel': ({ chatId }) => engine.cancel(chatId),
    'chats.approve': ({ chatId, callId, decision, args, message }) => engine.approve(chatId, callId, decision, args, message),
    'chats.answer': ({ chatId, callId, answer }) => engine.answer(chatId, callId, answer),
    'chats.runTool': ({ chatId, bundleID, slug, version, args, shareWithModel }) =>
      engine.runTool(chatId, { bundleID, slug, version }, args, shareWithModel ?? true),
    'chats.shareToolRun': async ({ chatId, messageId, shareWithModel }) => {
      const chat = await files.load(chatId);
      const message = chat.messages.find((entry) => entry.id === messageId);
      if (message?.role !== 'tool-run') throw new ToolbeltError('not_found', 'There is no tool run with that id in this chat.');
      message.shareWithModel = shareWithModel;
      chat.updatedAt = now();
      await files.save(chat);
      return chat;
    },
    'chats.appContext': async ({ chatId, callId, text }) => {
      const chat = await files.load(chatId);
      // A running chat is saved by its run: the app says it again once the run is over.
      if (chat.status === 'running') throw new ToolbeltError('chat_busy', 'The chat is answering; what the app shows reaches the model once it is done.');
      const found = allCalls(chat).find(({ call }) => call.id === callId);
      if (!found) throw new ToolbeltError('not_found', 'There is no call with that id in this chat.');
      if (text.trim()) found.call.appContext = text;
      else delete found.call.appContext;
      chat.updatedAt = now();
      await files.save(chat);
      return null;
    },
  };
}
