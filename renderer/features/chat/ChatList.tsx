import { useTranslation } from 'react-i18next';
import { i18n } from '../../i18n/index.js';
import { shortcutLabel } from '../../components/Kbd.js';
import { useDeferredValue, useEffect, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Chat, ChatSummary } from '../../../shared/schemas/chat.js';
import { PencilIcon, PinIcon, PlusIcon, TrashIcon } from '../../components/icons.js';
import { relativeTime, useNow } from '../../components/relative-time.js';
import { chatKeys, useChatSearch, useCreateChat, useChats, useDeleteChat, useUnreadableChats, useUpdateChat } from '../../queries/chats.js';
import { useProviders } from '../../queries/providers.js';
import { useApi } from '../../api/context.js';
import { useChatUi } from '../../state/chat-ui.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { PaneHeader } from '../../components/PaneHeader.js';
import { reusableNewChat } from './new-chat.js';

const UNDO_MS = 6_000;

/** The states a chat's row says, besides idle. */
const SAID_STATUSES = new Set<ChatSummary['status']>(['running', 'awaiting_approval', 'awaiting_user', 'error']);

/**
 * "New chat" with the provider and model of the last chat (what the person
 * used last), else the first provider with its default model or the first
 * model it lists; with none known the chat asks to pick one before sending.
 */
export function useNewChat() {
  const api = useApi();
  const providers = useProviders();
  const chats = useChats();
  const create = useCreateChat();
  const select = useChatUi((state) => state.select);
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const start = async () => {
    // The list may be a moment behind a chat that just got its first message: that chat's own data decides.
    const hasMessages = (chatId: string) => (queryClient.getQueryData<Chat>(chatKeys.chat(chatId))?.messages.length ?? 0) > 0;
    const untouched = reusableNewChat(chats.data, hasMessages);
    if (untouched) return select(untouched.id);
    // A provider added a moment ago may not be in the list this window last read.
    const list = providers.data?.length ? providers.data : (await providers.refetch()).data;
    // A chat's own data is ahead of the list's summary right after its model or provider changed (the list is read
    // again on the core's event, which can come later): that decides what "the last chat's model" is.
    const latest = (chatId: string) => queryClient.getQueryData<Chat>(chatKeys.chat(chatId));
    const last = chats.data
      ?.map((chat) => ({ providerId: latest(chat.id)?.providerId ?? chat.providerId, model: latest(chat.id)?.model ?? chat.model }))
      .find((chat) => chat.model && list?.some((provider) => provider.id === chat.providerId));
    const provider = list?.find((entry) => entry.id === last?.providerId) ?? list?.[0];
    if (!provider) return setProblem(i18n.t('chatList.noProvider'));
    setProblem(null);
    const model =
      last?.providerId === provider.id
        ? last.model
        : (provider.defaultModel ?? (await api.models.list({ id: provider.id }).then((listed) => listed.models[0]?.id ?? '', () => '')));
    // Awaited rather than given callbacks: whoever started it (a link's dialog) may close before the chat exists.
    await create.mutateAsync({ providerId: provider.id, model }).then(
      (chat) => select(chat.id),
      (error: unknown) => setProblem(errorMessage(error, i18n.t('chatList.createFailed'))),
    );
  };
  return { start: () => void start(), startAndWait: start, ready: (providers.data?.length ?? 0) > 0, known: providers.data !== undefined, problem, pending: create.isPending };
}

/** The chats, newest activity first: open, rename, delete with undo. Ctrl/Cmd+N starts one. */
export function ChatList() {
  const { t } = useTranslation();
  const chats = useChats();
  const selected = useChatUi((state) => state.selectedChatId);
  const select = useChatUi((state) => state.select);
  const pendingDeletes = useChatUi((state) => state.pendingDeletes);
  const markDeleted = useChatUi((state) => state.markDeleted);
  const unmarkDeleted = useChatUi((state) => state.unmarkDeleted);
  const remove = useDeleteChat();
  const rename = useUpdateChat();
  const newChat = useNewChat();
  const [renaming, setRenaming] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const deferredQuery = useDeferredValue(query);
  const now = useNow();
  const [undo, setUndo] = useState<{ chat: ChatSummary; timer: ReturnType<typeof setTimeout> } | null>(null);
  const latestStart = useRef(newChat.start);
  useEffect(() => {
    latestStart.current = newChat.start;
  });

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const key = event.key.toLowerCase();
      // Ctrl+N belongs to the browser when Toolbelt runs in one; Ctrl/Cmd+Shift+O works everywhere.
      if ((event.metaKey || event.ctrlKey) && ((!event.shiftKey && key === 'n') || (event.shiftKey && key === 'o'))) {
        event.preventDefault();
        latestStart.current();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // The file is deleted only when the undo window closes; until then the chat is just hidden.
  const deleteChat = (chat: ChatSummary) => {
    if (undo) {
      clearTimeout(undo.timer);
      remove.mutate(undo.chat.id);
    }
    markDeleted(chat.id);
    if (selected === chat.id) select(null);
    const timer = setTimeout(() => {
      remove.mutate(chat.id, { onSettled: () => unmarkDeleted(chat.id) });
      setUndo(null);
    }, UNDO_MS);
    setUndo({ chat, timer });
  };
  const undoDelete = () => {
    if (!undo) return;
    clearTimeout(undo.timer);
    unmarkDeleted(undo.chat.id);
    select(undo.chat.id);
    setUndo(null);
  };

  const visible = (chats.data ?? []).filter((chat) => !pendingDeletes.includes(chat.id));
  const pinned = visible.filter((chat) => chat.pinned);
  const recent = visible.filter((chat) => !chat.pinned);
  const row = (chat: ChatSummary) => (
    <ChatRow
      chat={chat}
      now={now}
      current={selected === chat.id}
      renaming={renaming === chat.id}
      onOpen={() => select(chat.id)}
      onRename={(title) => {
        if (title) rename.mutate({ chatId: chat.id, title });
        setRenaming(null);
      }}
      onStartRename={() => setRenaming(chat.id)}
      onCancelRename={() => setRenaming(null)}
      onPin={() => rename.mutate({ chatId: chat.id, pinned: !chat.pinned })}
      onDelete={() => deleteChat(chat)}
    />
  );
  return (
    <nav className="pane chat-list" aria-labelledby="chats-title">
      <PaneHeader
        titleId="chats-title"
        title={t('chatList.title')}
        action={
          <button type="button" className="button button--small" onClick={newChat.start} disabled={!newChat.ready || newChat.pending} title={t('chatList.newChatHint', { keys: shortcutLabel('N'), alternative: shortcutLabel('Shift+O') })}>
            <PlusIcon size={14} /> {t('chat.newChat')}
          </button>
        }
      >
        <ErrorLine message={newChat.problem} />
        {newChat.known && !newChat.ready ? (
          <p className="pane__hint muted">{t('chatList.waitsForProvider')}</p>
        ) : null}
        {undo ? (
          <div className="toast" role="status">
            {t('chatList.deleted', { title: undo.chat.title })}
            <button type="button" className="button button--ghost button--small" onClick={undoDelete}>
              {t('chatList.undo')}
            </button>
          </div>
        ) : null}
      </PaneHeader>
      <label className="visually-hidden" htmlFor="chat-search">
        {t('chatList.search')}
      </label>
      <input
        id="chat-search"
        className="input input--small chat-list__search"
        type="search"
        placeholder={t('chatList.searchPlaceholder')}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && query) {
            event.preventDefault();
            setQuery('');
          }
        }}
      />
      {query.trim() ? (
        <SearchResults query={deferredQuery} titles={new Map(visible.map((chat) => [chat.id, chat.title]))} />
      ) : chats.isError ? (
        <p className="pane__message error-text" role="alert">
          {t('chatList.loadFailed', { reason: chats.error.message })}
        </p>
      ) : visible.length === 0 && !chats.isPending ? (
        <p className="pane__message muted">{t('chatList.empty')}</p>
      ) : (
        <>
          {pinned.length > 0 ? <ChatGroup label={t('chatList.pinned')} chats={pinned} row={row} /> : null}
          <ChatGroup label={pinned.length > 0 ? t('chatList.recent') : t('chatList.title')} chats={recent} row={row} labelHidden={pinned.length === 0} />
        </>
      )}
      <UnreadableChats />
    </nav>
  );
}

function ChatGroup({ label, chats, row, labelHidden = false }: { label: string; chats: ChatSummary[]; row: (chat: ChatSummary) => ReactNode; labelHidden?: boolean }) {
  if (chats.length === 0) return null;
  return (
    <>
      {labelHidden ? null : (
        <h3 className="chat-list__group" aria-hidden="true">
          {label}
        </h3>
      )}
      <ul className="list" aria-label={label}>
        {chats.map((chat) => (
          <li key={chat.id} className="list__row">
            {row(chat)}
          </li>
        ))}
      </ul>
    </>
  );
}

interface ChatRowProps {
  chat: ChatSummary;
  now: number;
  current: boolean;
  renaming: boolean;
  onOpen: () => void;
  onStartRename: () => void;
  onRename: (title: string) => void;
  onCancelRename: () => void;
  onPin: () => void;
  onDelete: () => void;
}

function ChatRow({ chat, now, current, renaming, onOpen, onStartRename, onRename, onCancelRename, onPin, onDelete }: ChatRowProps) {
  const { t, i18n: { language } } = useTranslation();
  if (renaming) {
    return (
      <form
        className="inline-form chat-list__rename"
        onSubmit={(event) => {
          event.preventDefault();
          const value = new FormData(event.currentTarget).get('title');
          onRename(typeof value === 'string' ? value.trim() : '');
        }}
      >
        <label className="visually-hidden" htmlFor={`rename-${chat.id}`}>
          {t('chatList.chatTitle')}
        </label>
        <input id={`rename-${chat.id}`} name="title" className="input input--small" defaultValue={chat.title} autoFocus maxLength={200} onKeyDown={(event) => event.key === 'Escape' && onCancelRename()} />
        <button type="submit" className="button button--small">
          {t('common.save')}
        </button>
      </form>
    );
  }
  return (
    <>
      <button type="button" className="list__item" aria-current={current ? 'true' : undefined} onClick={onOpen}>
        <span className="list__main">
          <span className="list__title">
            <bdi>{chat.title}</bdi>
          </span>
          <span className="list__meta">
            {chat.model ? <span translate="no">{chat.model}</span> : t('chatList.noModel')}
            {SAID_STATUSES.has(chat.status) ? <span className={`chat-list__status chat-list__status--${chat.status}`}>{` · ${t(`chatList.status.${chat.status as 'running'}`)}`}</span> : null}
            {' · '}
            <time dateTime={chat.updatedAt} title={new Date(chat.updatedAt).toLocaleString(language)}>
              {relativeTime(chat.updatedAt, now, language)}
            </time>
          </span>
        </span>
      </button>
      <span className="list__actions">
        <button type="button" className={`icon-button${chat.pinned ? ' icon-button--on' : ''}`} aria-label={chat.pinned ? t('chatList.unpin', { title: chat.title }) : t('chatList.pin', { title: chat.title })} aria-pressed={chat.pinned} onClick={onPin}>
          <PinIcon size={15} />
        </button>
        <button type="button" className="icon-button" aria-label={t('chatList.rename', { title: chat.title })} onClick={onStartRename}>
          <PencilIcon size={15} />
        </button>
        <button type="button" className="icon-button" aria-label={t('chatList.delete', { title: chat.title })} onClick={onDelete}>
          <TrashIcon size={15} />
        </button>
      </span>
    </>
  );
}

/** Chats that hold the words, each with the passage that matched; Enter or a click opens one. */
function SearchResults({ query, titles }: { query: string; titles: Map<string, string> }) {
  const { t } = useTranslation();
  const search = useChatSearch(query);
  const select = useChatUi((state) => state.select);
  const results = (search.data?.results ?? []).filter((result) => titles.has(result.chatId));
  if (search.isError) {
    return (
      <p className="pane__message error-text" role="alert">
        {errorMessage(search.error, t('chatList.searchFailed'))}
      </p>
    );
  }
  if (search.data && results.length === 0) return <p className="pane__message muted">{t('chatList.noMatch', { query: query.trim() })}</p>;
  return (
    <ul className="list" aria-label={t('chatList.results')} aria-busy={search.isFetching}>
      {results.map((result) => (
        <li key={result.chatId} className="list__row">
          <button type="button" className="list__item" onClick={() => select(result.chatId)}>
            <span className="list__main">
              <span className="list__title">
                <bdi>{titles.get(result.chatId)}</bdi>
              </span>
              <span className="list__meta chat-list__snippet">{result.snippet}</span>
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** Chat files that cannot be opened stay listed, with the file and the reason, until they are fixed or moved. */
function UnreadableChats() {
  const { t } = useTranslation();
  const unreadable = useUnreadableChats().data ?? [];
  const select = useChatUi((state) => state.select);
  const selected = useChatUi((state) => state.selectedChatId);
  if (unreadable.length === 0) return null;
  return (
    <section className="chat-list__unreadable" aria-labelledby="unreadable-chats-title">
      <h3 id="unreadable-chats-title" className="chat-list__unreadable-title">
        {t('chatList.unreadable', { count: unreadable.length })}
      </h3>
      <ul className="list">
        {unreadable.map((entry) => (
          <li key={entry.id}>
            <button type="button" className="chat-list__unreadable-item" aria-current={selected === entry.id ? 'true' : undefined} onClick={() => select(entry.id)}>
              <code title={entry.file}>{entry.file.split(/[\\/]/).pop()}</code>
              <span className="error-text">{entry.reason}</span>
              <span className="muted">{t('chatList.openReadOnly')}</span>
            </button>
          </li>
        ))}
      </ul>
      <p className="muted">{t('chatList.unreadableHint')}</p>
    </section>
  );
}
