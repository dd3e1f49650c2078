import { useState } from 'react';
import { ToolbeltError } from '../../../shared/errors.js';
import type { LiveQuestion } from '../../../shared/schemas/questions.js';
import { ArgumentForm } from '../../components/ArgumentForm.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { Modal } from '../../components/Modal.js';
import { useAnswerQuestion, useLiveQuestions } from '../../queries/questions.js';

type Issue = { path: string; message: string };

function issuesOf(error: unknown): Issue[] {
  const details = error instanceof ToolbeltError ? (error.details as { issues?: Issue[] } | undefined) : undefined;
  return Array.isArray(details?.issues) ? details.issues : [];
}

/**
 * A question a running tool asks now (an MCP server's elicitation), over
 * whichever screen is open: its form from the requested schema; Send,
 * Decline, or Esc to cancel. The tool waits meanwhile.
 */
export function LiveQuestionDialog() {
  const questions = useLiveQuestions();
  const question = questions.data?.[0];
  // A fresh form per question: the key resets the fields.
  return question ? <QuestionForm key={question.id} question={question} waiting={questions.data!.length - 1} /> : null;
}

function QuestionForm({ question, waiting }: { question: LiveQuestion; waiting: number }) {
  const answer = useAnswerQuestion();
  const [failure, setFailure] = useState<string | null>(null);
  const [issues, setIssues] = useState<Issue[]>([]);
  const send = (params: Parameters<typeof answer.mutate>[0]['answer']) => {
    setFailure(null);
    answer.mutate(
      { id: question.id, answer: params },
      {
        onError: (error) => {
          setIssues(issuesOf(error));
          setFailure(errorMessage(error, 'The answer did not reach the app; try again.'));
        },
      },
    );
  };
  return (
    <Modal title="A tool asks you" onDismiss={() => send({ action: 'cancel' })} wide>
      <p className="muted live-question__from">
        From the MCP server <strong>{question.from.server}</strong>, while one of its tools runs{waiting > 0 ? ` (${waiting} more waiting)` : ''}.
      </p>
      <p className="ask__question">{question.message}</p>
      <ArgumentForm
        name={`Answer to ${question.from.server}`}
        schema={question.schema}
        submitLabel="Send"
        busyLabel="Sending…"
        busy={answer.isPending}
        issues={issues}
        onSubmit={(content) => send({ action: 'accept', content })}
        actions={
          <button type="button" className="button" disabled={answer.isPending} onClick={() => send({ action: 'decline' })}>
            Decline
          </button>
        }
      />
      <ErrorLine message={failure} />
      <p className="muted modal__keys">
        <kbd className="kbd">Esc</kbd> cancels without answering
      </p>
    </Modal>
  );
}
