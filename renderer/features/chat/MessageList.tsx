import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useLayoutEffect, useRef } from 'react';
import type { Chat, ChatMessage } from '../../../shared/schemas/chat.js';
import { Switch } from '../../components/Switch.js';
import { useShareToolRun } from '../../queries/chats.js';
import { Markdown } from './Markdown.js';
import { ToolCallCard } from './ToolCallCard.js';

const MessageView = memo(function MessageView({ chatId, message, streaming }: { chatId: string; message: ChatMessage; streaming: boolean }) {
  const share = useShareToolRun();
  if (message.role === 'user') {
    return (
      <div className="message message--user">
        <div className="message__bubble">{message.content}</div>
      </div>
    );
  }
  if (message.role === 'tool-run') {
    return (
      <div className="message message--tool-run">
        <ToolCallCard call={message.call} byPerson />
        <Switch
          label="Model sees this on the next turn"
          checked={message.shareWithModel}
          onChange={(shareWithModel) => share.mutate({ chatId, messageId: message.id, shareWithModel })}
        />
      </div>
    );
  }
  const empty = message.content === '' && message.toolCalls.length === 0;
  return (
    <div className="message message--assistant">
      {message.content ? <Markdown text={message.content} /> : null}
      {empty && streaming ? <p className="message__typing" aria-label="The model is answering">…</p> : null}
      {message.toolCalls.map((call) => (
        <ToolCallCard key={call.id} call={call} />
      ))}
      {message.finishReason === 'cancelled' ? <p className="muted message__note">Stopped.</p> : null}
      {message.finishReason === 'interrupted' ? <p className="muted message__note">Interrupted when the app stopped.</p> : null}
    </div>
  );
});

/**
 * The conversation, virtualized so thousands of messages scroll smoothly.
 * It follows new text while the reader is at the bottom, and stays put when
 * they scrolled up to read.
 */
export function MessageList({ chat }: { chat: Chat }) {
  const scroller = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  const messages = chat.messages;
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is meant to be used this way
  const virtualizer = useVirtualizer({
    count: messages.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 80,
    overscan: 6,
    getItemKey: (index) => messages[index]!.id,
  });
  const last = messages.at(-1);
  const lastSize = last ? (last.role === 'assistant' ? last.content.length + last.toolCalls.length * 1000 : 1) : 0;

  useEffect(() => {
    pinned.current = true;
  }, [chat.id]);
  // Rows are measured after they render, so following the end means following the total height.
  const total = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    const element = scroller.current;
    if (pinned.current && element) element.scrollTop = element.scrollHeight;
  }, [total, messages.length, lastSize]);

  return (
    <div
      ref={scroller}
      className="message-list"
      role="log"
      aria-label="Messages"
      aria-live="polite"
      aria-busy={chat.status === 'running'}
      tabIndex={0}
      onScroll={(event) => {
        const element = event.currentTarget;
        pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 40;
      }}
    >
      <div className="message-list__inner" style={{ height: total }}>
        {virtualizer.getVirtualItems().map((row) => (
          <div key={row.key} ref={virtualizer.measureElement} data-index={row.index} className="message-list__row" style={{ transform: `translateY(${row.start}px)` }}>
            <MessageView chatId={chat.id} message={messages[row.index]!} streaming={chat.status === 'running' && row.index === messages.length - 1} />
          </div>
        ))}
      </div>
    </div>
  );
}
