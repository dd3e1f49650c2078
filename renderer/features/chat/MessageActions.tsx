import { useTranslation } from 'react-i18next';
import { i18n } from '../../i18n/index.js';
import { useState, type ReactNode } from 'react';
import type { AssistantMessage, Chat, UserMessage } from '../../../shared/schemas/chat.js';
import { CopyButton } from '../../components/CopyButton.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { ContinueIcon, PencilIcon, RegenerateIcon } from '../../components/icons.js';
import { useContinueChat, useRegenerate, useSendMessage } from '../../queries/chats.js';

/** How a run can end short of an answer the person may want carried on. */
const CONTINUABLE = new Set(['cancelled', 'max_turns', 'length', 'error', 'tool_error']);

/** Why a chat cannot start another run now, in words; null when it can. */
export function busyReason(chat: Chat): string | null {
  if (chat.status === 'running') return i18n.t('messageActions.waitAnswer');
  if (chat.status === 'awaiting_approval') return i18n.t('messageActions.approveFirst');
  if (chat.status === 'awaiting_user') return i18n.t('messageActions.answerFirst');
  return null;
}

function ActionButton({ label, disabledBecause, onClick, children }: { label: string; disabledBecause: string | null; onClick: () => void; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={label}
      title={disabledBecause ? t('messageActions.disabledBecause', { action: label, reason: disabledBecause }) : label}
      aria-disabled={disabledBecause ? true : undefined}
      onClick={() => {
        if (!disabledBecause) onClick();
      }}
    >
      {children}
    </button>
  );
}

/** The person's message, with Copy and Edit; editing sends it again in place of the old one and what followed. */
export function UserMessageBody({ chatId, message, busy }: { chatId: string; message: UserMessage; busy: string | null }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<string | null>(null);
  const send = useSendMessage();
  if (draft !== null) {
    const submit = () => {
      if (draft.trim() === '' || busy) return;
      send.mutate({ chatId, content: draft, replaces: message.id, ...(message.attachments ? { attachments: message.attachments } : {}) }, { onSuccess: () => setDraft(null) });
    };
    return (
      <form
        className="message__edit"
        aria-label={t('messageActions.edit')}
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <textarea
          className="input message__edit-box"
          aria-label={t('composer.message')}
          value={draft}
          rows={Math.min(10, Math.max(2, draft.split('\n').length))}
          autoFocus
          // The caret starts after the text, where a person goes on typing.
          onFocus={(event) => event.currentTarget.setSelectionRange(event.currentTarget.value.length, event.currentTarget.value.length)}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.preventDefault();
              event.stopPropagation();
              setDraft(null);
            } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
              event.preventDefault();
              submit();
            }
          }}
        />
        <p className="muted message__edit-hint">{t('messageActions.editHint')}</p>
        <ErrorLine message={send.isError ? errorMessage(send.error) : busy} />
        <div className="message__edit-buttons">
          <button type="button" className="button button--small" onClick={() => setDraft(null)}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button--small button--primary" disabled={draft.trim() === '' || busy !== null || send.isPending}>
            {t('composer.send')}
          </button>
        </div>
      </form>
    );
  }
  return (
    <>
      {message.content ? <div className="message__bubble">{message.content}</div> : null}
      <div className="message__actions" role="toolbar" aria-label={t('messageActions.toolbar')}>
        {message.content ? <CopyButton text={message.content} label={t('messageActions.copy')} /> : null}
        <ActionButton label={t('messageActions.edit')} disabledBecause={busy} onClick={() => setDraft(message.content)}>
          <PencilIcon size={16} />
        </ActionButton>
      </div>
    </>
  );
}

/** Whether the chat's last run ended short of an answer (stopped, cut off, failed): Continue is offered. */
export function endedShort(chat: Chat): boolean {
  const last = chat.messages.at(-1);
  return last?.role === 'assistant' && (last.finishReason === 'interrupted' || (chat.lastRun !== undefined && CONTINUABLE.has(chat.lastRun.reason)));
}

/** Under the model's answer: Copy; on the last one, Regenerate, and Continue when the run ended short. */
export function AssistantActions({ chatId, message, last, busy, canContinue }: { chatId: string; message: AssistantMessage; last: boolean; busy: string | null; canContinue: boolean }) {
  const { t } = useTranslation();
  const regenerate = useRegenerate();
  const continueChat = useContinueChat();
  const failure = regenerate.error ?? continueChat.error;
  if (!last && !message.content) return null;
  return (
    <>
      <div className={`message__actions${last ? ' message__actions--shown' : ''}`} role="toolbar" aria-label={t('messageActions.answerToolbar')}>
        {message.content ? <CopyButton text={message.content} label={t('messageActions.copyAnswer')} /> : null}
        {last ? (
          <ActionButton label={t('messageActions.regenerate')} disabledBecause={busy} onClick={() => regenerate.mutate({ chatId })}>
            <RegenerateIcon size={16} />
          </ActionButton>
        ) : null}
        {last && canContinue && !busy ? (
          <button type="button" className="button button--small" onClick={() => continueChat.mutate({ chatId })} disabled={continueChat.isPending}>
            <ContinueIcon size={14} /> {t('messageActions.continue')}
          </button>
        ) : null}
      </div>
      {last && failure ? <ErrorLine message={errorMessage(failure)} /> : null}
    </>
  );
}
