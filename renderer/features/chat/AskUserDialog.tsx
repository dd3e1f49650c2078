import { useRef, useState } from 'react';
import type { PendingItem } from '../../../shared/schemas/chat.js';
import { Modal } from '../../components/Modal.js';
import { useAnswer, useCancelChat } from '../../queries/chats.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';

/** "Question from the model": its choices as buttons, or a text answer. Esc stops the run. */
export function AskUserDialog({ chatId, item }: { chatId: string; item: PendingItem }) {
  const answer = useAnswer();
  const cancel = useCancelChat();
  const [text, setText] = useState('');
  const [failure, setFailure] = useState<string | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const send = (value: string) => {
    setFailure(null);
    answer.mutate(
      { chatId, callId: item.callId, answer: value },
      { onError: (error) => setFailure(errorMessage(error, 'The answer did not reach the app; try again.')) },
    );
  };
  return (
    <Modal title="Question from the model" onDismiss={() => cancel.mutate({ chatId })} initialFocus={item.choices?.length ? undefined : field}>
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
          Your answer
        </label>
        <input ref={field} id={`answer-${item.callId}`} className="input" placeholder={item.choices?.length ? 'Or type another answer' : 'Your answer'} value={text} onChange={(event) => setText(event.target.value)} />
        <button type="submit" className="button button--primary" disabled={!text.trim() || answer.isPending}>
          Answer
        </button>
      </form>
      <ErrorLine message={failure} />
      <p className="muted modal__keys">
        <kbd className="kbd">Esc</kbd> stops the run instead
      </p>
    </Modal>
  );
}
