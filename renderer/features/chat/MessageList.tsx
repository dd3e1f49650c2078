import { useVirtualizer } from '@tanstack/react-virtual';
import { HookRuns } from '../../components/HookRuns.js';
import { SentFiles } from './files/SentFiles.js';
import { useTranslation } from 'react-i18next';
import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { Chat, ChatMessage } from '../../../shared/schemas/chat.js';
import { ArrowDownIcon } from '../../components/icons.js';
import { SwitchField } from '../../components/Switch.js';
import { useChatUi } from '../../state/chat-ui.js';
import { Pictures } from '../../components/Pictures.js';
import { useShareToolRun } from '../../queries/chats.js';
import { Markdown } from './Markdown.js';
import { NEAR_VIEW_ROOT } from './near-view.js';
import { AssistantActions, busyReason, endedShort, UserMessageBody } from './MessageActions.js';
import { StructuredAnswer } from './StructuredAnswer.js';
import { ToolCallCard } from './ToolCallCard.js';
import { ServerSearchCards } from './ServerSearchCard.js';
import { useCallsBeingWritten } from './calls-being-written.js';

/** One message; its props are plain values so a streamed delta re-renders the message it touches and no other. */
const MessageView = memo(function MessageView({
  chatId,
  message,
  last,
  streaming,
  busy,
  canContinue,
}: {
  chatId: string;
  message: ChatMessage;
  last: boolean;
  streaming: boolean;
  busy: string | null;
  canContinue: boolean;
}) {
  const share = useShareToolRun();
  const { t } = useTranslation();
  const writing = useCallsBeingWritten(chatId, message);
  if (message.role === 'user') {
    return (
      <div className="message message--user">
        <UserMessageBody chatId={chatId} message={message} busy={busy} />
        {message.files?.length ? <SentFiles chatId={chatId} files={message.files} /> : null}
        {message.hooks?.length ? <HookRuns runs={message.hooks} /> : null}
        {message.attachments?.map((attachment, index) => (
          <details key={`${attachment.ref}-${index}`} className="message__attachment">
            <summary>
              <span className="badge badge--quiet">{attachment.kind === 'resource' ? t('chat.resource') : t('chat.prompt')}</span> {attachment.title}{' '}
              <span className="muted">{`· ${attachment.server}`}</span>
            </summary>
            <pre className="content-blocks__text">{attachment.text}</pre>
            {attachment.images ? <Pictures images={attachment.images} label={t('chat.picturesOf', { title: attachment.title })} /> : null}
          </details>
        ))}
      </div>
    );
  }
  if (message.role === 'tool-run') {
    return (
      <div className="message message--tool-run">
        <ToolCallCard call={message.call} byPerson />
        <SwitchField
          label={t('chat.modelSeesRun')}
          checked={message.shareWithModel}
          onChange={(shareWithModel) => share.mutate({ chatId, messageId: message.id, shareWithModel })}
        />
      </div>
    );
  }
  const empty = message.content === '' && message.toolCalls.length === 0 && writing.length === 0;
  return (
    <div className="message message--assistant">
      {message.answer ? <StructuredAnswer value={message.answer.value} /> : message.content ? <Markdown text={message.content} /> : null}
      {empty && streaming ? <p className="message__typing" aria-label={t('chat.answering')}>…</p> : null}
      <ServerSearchCards blocks={message.serverBlocks} />
      {/* One list, so the card a call gets while it is written is the card it keeps once whole. */}
      {[...message.toolCalls, ...writing].map((call) => (
        <ToolCallCard key={call.id} call={call} chatId={chatId} {...(writing.includes(call) ? { writing: true } : {})} />
      ))}
      {message.answerProblem ? <p className="muted message__note">{t('chat.notTheJson', { problem: message.answerProblem })}</p> : null}
      {message.hooks?.length ? <HookRuns runs={message.hooks} /> : null}
      {message.finishReason === 'cancelled' ? <p className="muted message__note">{t('chat.stopped')}</p> : null}
      {message.finishReason === 'interrupted' ? <p className="muted message__note">{t('chat.interrupted')}</p> : null}
      {streaming ? null : <AssistantActions chatId={chatId} message={message} last={last} busy={busy} canContinue={canContinue} />}
    </div>
  );
});

const neverAdjust = () => false;

/**
 * The conversation, virtualized so thousands of messages scroll smoothly.
 * It follows new text while the reader is at the bottom, and stays put when
 * they scrolled up to read.
 */
export function MessageList({ chat }: { chat: Chat }) {
  const { t } = useTranslation();
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const lastTop = useRef(0);
  // New content arrived below while the reader was up the page: "Jump to latest" is offered.
  const [behind, setBehind] = useState(false);
  const followSignal = useChatUi((state) => state.followSignal);
  const messages = chat.messages;
  const busy = busyReason(chat);
  const canContinue = endedShort(chat);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is meant to be used this way
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 64,
    overscan: 6,
    getItemKey: (index) => messages[index]!.id,
  });
  // While the list follows the end it scrolls there itself, frame after frame. A row growing would also make the
  // virtualizer move the scroll position; past the end that move is clamped, and a clamped move makes it read the
  // list's height (a forced layout) on every render until the end catches up. So while following, it never moves it;
  // not following, the hook reads as unset and the virtualizer's own rule holds (not a copy of it here).
  if (!Object.getOwnPropertyDescriptor(virtualizer, 'shouldAdjustScrollPositionOnItemSizeChange')?.get) {
    Object.defineProperty(virtualizer, 'shouldAdjustScrollPositionOnItemSizeChange', { configurable: true, get: () => (pinned.current ? neverAdjust : undefined) });
  }
  const last = messages.at(-1);
  const lastSize = last ? (last.role === 'assistant' ? last.content.length + last.toolCalls.length * 1000 : 1) : 0;

  useEffect(() => {
    pinned.current = true;
    setBehind(false);
  }, [chat.id]);
  // Rows are measured only once they render, and each measurement moves the
  // end; so following the end means scrolling to it again, frame after frame,
  // until it holds still.
  const total = virtualizer.getTotalSize();
  const followFrame = useRef(0);
  const followEnd = useCallback(() => {
    const element = scroller.current;
    cancelAnimationFrame(followFrame.current);
    if (!pinned.current || !element) return;
    let frames = 0;
    let still = 0;
    const follow = () => {
      if (!pinned.current) return;
      const before = element.scrollHeight;
      element.scrollTop = element.scrollHeight;
      lastTop.current = element.scrollTop;
      still = element.scrollHeight === before ? still + 1 : 0;
      if (still < 3 && ++frames < 60) followFrame.current = requestAnimationFrame(follow);
    };
    follow();
  }, []);
  // New content (a message, the last one growing), not rows being measured as the reader scrolls.
  useEffect(() => {
    if (!pinned.current) setBehind(true);
  }, [messages.length, lastSize]);
  useLayoutEffect(() => {
    followEnd();
    return () => cancelAnimationFrame(followFrame.current);
  }, [total, messages.length, lastSize, followEnd]);
  const jumpToEnd = useCallback(() => {
    pinned.current = true;
    setBehind(false);
    followEnd();
  }, [followEnd]);
  // The person sent, ran a tool or asked again here: they see what comes of it, wherever they had scrolled.
  useEffect(() => {
    if (followSignal.chatId === chat.id) jumpToEnd();
  }, [followSignal, chat.id, jumpToEnd]);

  // Home and End go to the first and last message at once (the browser's
  // smooth scroll would be cut short by rows being measured on the way).
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Keys typed inside a message (its edit box, a button) are theirs.
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Home') {
      pinned.current = false;
      virtualizer.scrollToIndex(0, { align: 'start' });
    } else if (event.key === 'End') {
      jumpToEnd();
    } else return;
    event.preventDefault();
  };

  return (
    <div className="message-frame">
    <div
      ref={scroller}
      className="message-list"
      {...{ [NEAR_VIEW_ROOT]: '' }}
      role="log"
      aria-label={t('chat.messages')}
      aria-live="polite"
      aria-busy={chat.status === 'running'}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onScroll={(event) => {
        // Only a move up lets go of the end; rows growing as they are measured never do.
        const element = event.currentTarget;
        const atEnd = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
        pinned.current = atEnd || (pinned.current && element.scrollTop >= lastTop.current);
        lastTop.current = element.scrollTop;
        if (atEnd) setBehind(false);
      }}
    >
      <div className="message-list__inner" style={{ height: total }}>
        {virtualizer.getVirtualItems().map((row) => (
          <div key={row.key} ref={virtualizer.measureElement} data-index={row.index} className="message-list__row" style={{ top: row.start }}>
            {row.index === 0 && chat.startHooks?.length ? <HookRuns runs={chat.startHooks} /> : null}
            <MessageView
              chatId={chat.id}
              message={messages[row.index]!}
              last={row.index === messages.length - 1}
              streaming={chat.status === 'running' && row.index === messages.length - 1}
              busy={busy}
              canContinue={canContinue}
            />
          </div>
        ))}
      </div>
    </div>
      {behind ? (
        <button type="button" className="button jump-latest" onClick={jumpToEnd}>
          <ArrowDownIcon size={15} /> {t('chat.jumpToLatest')}
        </button>
      ) : null}
    </div>
  );
}
