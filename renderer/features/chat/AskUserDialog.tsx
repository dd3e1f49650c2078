import { Trans, useTranslation } from 'react-i18next';
import { useRef, useState } from 'react';
import type { PendingItem } from '../../../shared/schemas/chat.js';
import { Modal } from '../../components/Modal.js';
import { useAnswer, useCancelChat } from '../../queries/chats.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';

/** "Question from the model": its choices as buttons, or a text answer. Esc stops the run. */
export function AskUserDialog({ chatId, item }: { chatId: string; item: PendingItem }) {
  const { t } = useTranslation();
  const answer = useAnswer();
  const cancel = useCancelChat();
  const [text, setText] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const send = (value: string) => {
    setFailure(null);
    answer.mutate(
      { chatId, callId: item.callId, answer: value },
      { onError: (error) => setFailure(errorMessage(error, t('approval.notDelivered'))) },
    );
  };
  return (
    <Modal title={t('ask.title')} onDismiss={() => cancel.mutate({ chatId })} initialFocus={item.choices?.length ? undefined : field}>
      <p className="ask__question">{item.question}</p>
      {item.choices?.length ? (
        <div className="ask__choices">
          {item.choices.map((choice) => (
            <button key={choice} type="button" className="button" disabled={answer.isPending} onClick={() => send(choice)}>
              {choice}
            </button>
          ))}
        </div>
      ) : null}
      <form
        className="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (text.trim()) send(text.trim());
        }}
      >
        <label className="visually-hidden" htmlFor={`answer-${item.callId}`}>
          {t('ask.yourAnswer')}
        </label>
        <input ref={field} id={`answer-${item.callId}`} className="input" placeholder={item.choices?.length ? t('ask.otherAnswer') : t('ask.yourAnswer')} value={text} onChange={(event) => setText(event.target.value)} />
        <button type="submit" className="button button--primary" disabled={!text.trim() || answer.isPending}>
          {t('ask.answer')}
        </button>
      </form>
      <ErrorLine message={failure} />
      <p className="muted modal__keys">
        <Trans i18nKey="ask.escStops" components={[<kbd className="kbd" />]} />
      </p>
    </Modal>
  );
}
