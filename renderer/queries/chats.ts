import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ParamsOf } from '../../shared/operation.js';
import type { Operations } from '../../shared/operations/index.js';
import type { Chat, ChatStreamEvent, ChatTools } from '../../shared/schemas/chat.js';
import { useApi, useCoreTransport } from '../api/context.js';
import { useChatUi } from '../state/chat-ui.js';
import { useInputDrafts } from '../state/input-drafts.js';
import { applyChatEvent, mergeFetchedChat } from './apply-chat-event.js';

export const chatKeys = {
  all: ['chats'] as const,
  list: ['chats', 'list'] as const,
  chat: (chatId: string) => ['chats', 'chat', chatId] as const,
  context: (chatId: string) => ['chats', 'context', chatId] as const,
};

/** The longest a streamed piece waits to be shown when no frame comes (a hidden window draws none). */
const FLUSH_WITHOUT_FRAME_MS = 100;

/**
 * Chat events keep open chats current as they stream; list changes refresh
 * the sidebar. A chat's events are applied together once per frame: a fast
 * model sends hundreds of pieces per frame (and one network read can hold
 * thousands), and a render per piece or per read is work nobody sees.
 */
export function useChatEvents(): void {
  const transport = useCoreTransport();
  const queryClient = useQueryClient();
  useEffect(() => {
    const queued = new Map<string, ChatStreamEvent[]>();
    let scheduled = false;
    let frame = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      if (!scheduled) return;
      scheduled = false;
      cancelAnimationFrame(frame);
      clearTimeout(timer);
      const applyDrafts = useInputDrafts.getState().apply;
      for (const [chatId, changes] of queued) {
        const key = chatKeys.chat(chatId);
        let chat = queryClient.getQueryData<Chat>(key);
        if (!chat) continue;
        let readAgain = false;
        for (const change of changes) {
          // A piece of a message this window never saw: read the chat again rather than drop text.
          if ('messageId' in change && !chat.messages.some((message) => message.id === change.messageId)) readAgain = true;
          if (change.type === 'finish') readAgain = true;
          chat = applyChatEvent(chat, change);
        }
        queryClient.setQueryData<Chat>(key, chat);
        applyDrafts(chatId, changes);
        if (readAgain) void queryClient.invalidateQueries({ queryKey: key });
      }
      queued.clear();
    };
    const unsubscribe = transport.subscribe((event) => {
      if (event.type === 'chats.changed') void queryClient.invalidateQueries({ queryKey: chatKeys.list });
      if (event.type !== 'chat') return;
      const list = queued.get(event.chatId);
      if (list) list.push(event.event);
      else queued.set(event.chatId, [event.event]);
      if (!scheduled) {
        scheduled = true;
        frame = requestAnimationFrame(flush);
        timer = setTimeout(flush, FLUSH_WITHOUT_FRAME_MS);
      }
    });
    return () => {
      unsubscribe();
      flush();
    };
  }, [transport, queryClient]);
}

function useChatListQuery<T>(select: (list: Awaited<ReturnType<ReturnType<typeof useApi>['chats']['list']>>) => T) {
  const api = useApi();
  return useQuery({ queryKey: chatKeys.list, queryFn: () => api.chats.list(), select });
}

export function useChats() {
  return useChatListQuery((list) => list.chats);
}

/** Chat files the core cannot read, with the reason: shown so they are not silently missing. */
export function useUnreadableChats() {
  return useChatListQuery((list) => list.invalid);
}

/** Chats holding every word of the query; nothing is asked while the query is empty. */
export function useChatSearch(query: string) {
  const api = useApi();
  const trimmed = query.trim();
  return useQuery({
    queryKey: ['chats', 'search', trimmed],
    queryFn: () => api.chats.search({ query: trimmed }),
    enabled: trimmed !== '',
    placeholderData: (previous) => previous,
  });
}

/** One of the person's files a message holds, read when it is shown (pictures, in the virtualized list, only as their row renders). */
export function usePersonFile(chatId: string, sha256: string, enabled = true) {
  const api = useApi();
  return useQuery({ queryKey: ['chat-file', chatId, sha256], queryFn: () => api.chats.file({ chatId, sha256 }), enabled, staleTime: Infinity });
}

export function useChat(chatId: string | null) {
  const api = useApi();
  return useQuery({
    queryKey: chatId ? chatKeys.chat(chatId) : ['chats', 'chat', 'none'],
    queryFn: () => api.chats.get({ chatId: chatId! }),
    enabled: chatId !== null,
    retry: false,
    structuralSharing: (seen: unknown, fetched: unknown) => mergeFetchedChat(seen as Chat | undefined, fetched as Chat),
  });
}

/** A mutation whose answer is the chat: written straight into the cache. */
function useChatMutation<P>(run: (params: P) => Promise<Chat>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (chat) => {
      queryClient.setQueryData(chatKeys.chat(chat.id), chat);
      void queryClient.invalidateQueries({ queryKey: chatKeys.list });
    },
  });
}

export function useCreateChat() {
  const api = useApi();
  return useChatMutation((params: ParamsOf<Operations['chats.create']>) => api.chats.create(params));
}

export function useUpdateChat() {
  const api = useApi();
  return useChatMutation((params: ParamsOf<Operations['chats.update']>) => api.chats.update(params));
}

export function useApprove() {
  const api = useApi();
  return useChatMutation((params: ParamsOf<Operations['chats.approve']>) => api.chats.approve(params));
}

export function useAnswer() {
  const api = useApi();
  return useChatMutation((params: ParamsOf<Operations['chats.answer']>) => api.chats.answer(params));
}

export function useCancelChat() {
  const api = useApi();
  return useChatMutation((params: ParamsOf<Operations['chats.cancel']>) => api.chats.cancel(params));
}

export function useShareToolRun() {
  const api = useApi();
  return useChatMutation((params: ParamsOf<Operations['chats.shareToolRun']>) => api.chats.shareToolRun(params));
}

/** A mutation that starts something in a chat (a message, a run, a tool): the chat is read again after, so what left it goes. */
function useChatRunMutation<P extends { chatId: string }, R>(start: (params: P) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: start,
    // The person acted in this chat: what comes of it is shown, even if they had scrolled up to read.
    onMutate: (params) => useChatUi.getState().followEnd(params.chatId),
    onSuccess: (_result, params) => void queryClient.invalidateQueries({ queryKey: chatKeys.chat(params.chatId) }),
  });
}

export function useSendMessage() {
  const api = useApi();
  return useChatRunMutation((params: ParamsOf<Operations['chats.send']>) => api.chats.send(params));
}

export function useRegenerate() {
  const api = useApi();
  return useChatRunMutation((params: { chatId: string }) => api.chats.regenerate(params));
}

export function useContinueChat() {
  const api = useApi();
  return useChatRunMutation((params: { chatId: string }) => api.chats.continue(params));
}

export function useRunTool() {
  const api = useApi();
  return useChatRunMutation((params: ParamsOf<Operations['chats.runTool']>) => api.chats.runTool(params));
}

export function useDeleteChat() {
  const api = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (chatId: string) => api.chats.delete({ chatId }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: chatKeys.list }),
  });
}

/** The chat's next request against its model's input size; read again whenever the chat changes. */
export function useChatContext(chat: { id: string; updatedAt: string; status: string; messages: unknown[] }, choosing?: ChatTools) {
  const api = useApi();
  return useQuery({
    queryKey: [...chatKeys.context(chat.id), chat.updatedAt, chat.messages.length, choosing ? JSON.stringify(choosing) : null],
    queryFn: () => api.chats.context({ chatId: chat.id, ...(choosing ? { tools: choosing } : {}) }),
    enabled: chat.status !== 'running',
    // The chat's last estimate stays on screen while a run streams and while a new one is read (never another chat's).
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[2] === chat.id ? previous : undefined),
    retry: false,
    staleTime: 30_000,
  });
}

export function useDropOldResults() {
  const api = useApi();
  return useChatMutation((params: ParamsOf<Operations['chats.dropOldResults']>) => api.chats.dropOldResults(params));
}
