import { useRef, useState } from 'react';
import type { LiveQuestion } from '../../../shared/schemas/questions.js';
import { ArgumentForm } from '../../components/ArgumentForm.js';
import { ErrorLine, errorMessage, issuesOf } from '../../components/ErrorLine.js';
import { Modal } from '../../components/Modal.js';
import { useAnswerQuestion, useLiveQuestions } from '../../queries/questions.js';

type Issue = { path: string; message: string };

/**
 * A question a running tool asks now (an MCP server's elicitation), over
 * whichever screen is open: its form from the requested schema; Send,
 * Decline, or Esc to cancel. The tool waits meanwhile.
 */
export function LiveQuestionDialog() {
  const questions = useLiveQuestions();
  const question = questions.data?.[0];
  if (!question) return null;
  const waiting = questions.data!.length - 1;
  // A fresh form per question: the key resets the fields.
  return question.approval ? <ClientApproval key={question.id} question={question} waiting={waiting} /> : <QuestionForm key={question.id} question={question} waiting={waiting} />;
}

function useSendAnswer(question: LiveQuestion) {
  const answer = useAnswerQuestion();
  const [failure, setFailure] = useState<string | null>(null);
  const [issues, setIssues] = useState<Issue[]>([]);
  const send = (params: Parameters<typeof answer.mutate>[0]['answer']) => {
    setFailure(null);
    answer.mutate(
      { id: question.id, answer: params },
      {
        onError: (error) => {
          const found = issuesOf(error);
          setIssues(found);
          // Problems shown at their fields are not said twice.
          setFailure(found.length > 0 ? 'Fix the marked fields, then send again.' : errorMessage(error, 'The answer did not reach the app; try again.'));
        },
      },
    );
  };
  return { send, busy: answer.isPending, failure, issues };
}

const askerName = (from: LiveQuestion['from']) => (from.kind === 'mcp-server' ? from.server : from.kind === 'mcp-client' ? from.client : from.path.join(' → '));

/**
 * Another app (an MCP client using the shared tools) or an agent tool wants
 * to run a tool that asks first: who (an agent's path), the tool, its
 * arguments, Allow once or Deny. Enter allows
 * (focus starts there); Esc denies. The other app waits meanwhile.
 */
function ClientApproval({ question, waiting }: { question: LiveQuestion; waiting: number }) {
  const approval = question.approval!;
  const { send, busy, failure } = useSendAnswer(question);
  const allowButton = useRef<HTMLButtonElement>(null);
  const client = askerName(question.from);
  return (
    <Modal
      title="Approve tool call"
      wide
      onDismiss={() => send({ action: 'decline' })}
      initialFocus={allowButton}
      description={
        question.from.kind === 'agent' ? (
          <p>
            <strong>
              {client} → {approval.displayName}
            </strong>
            <br />
            The agent wants to run <strong>{approval.displayName}</strong> <span className="muted">({approval.slug})</span>, which asks before every call.
            {waiting > 0 ? ` ${waiting} more waiting.` : ''}
          </p>
        ) : (
          <p>
            <strong>{client}</strong> wants to run <strong>{approval.displayName}</strong> <span className="muted">({approval.slug}, over MCP)</span>
            <br />
            This tool asks before every call.{waiting > 0 ? ` ${waiting} more waiting.` : ''}
          </p>
        )
      }
    >
      <h3 className="subhead">Arguments</h3>
      <pre className="code-block" aria-label="Arguments">
        {JSON.stringify(approval.args, null, 2)}
      </pre>
      <ErrorLine message={failure} />
      <div className="modal__actions">
        <button ref={allowButton} type="button" className="button button--primary" disabled={busy} onClick={() => send({ action: 'accept', content: {} })}>
          Allow once
        </button>
        <button type="button" className="button button--danger" disabled={busy} onClick={() => send({ action: 'decline' })}>
          Deny
        </button>
        <span className="muted modal__keys">
          <kbd className="kbd">Enter</kbd> allows once · <kbd className="kbd">Esc</kbd> denies
        </span>
      </div>
    </Modal>
  );
}

function QuestionForm({ question, waiting }: { question: LiveQuestion; waiting: number }) {
  const { send, busy, failure, issues } = useSendAnswer(question);
  const asker = askerName(question.from);
  return (
    <Modal title="A tool asks you" onDismiss={() => send({ action: 'cancel' })} wide>
      <p className="muted live-question__from">
        From the MCP server <strong>{asker}</strong>, while one of its tools runs{waiting > 0 ? ` (${waiting} more waiting)` : ''}.
      </p>
      <p className="ask__question">{question.message}</p>
      <ArgumentForm
        name={`Answer to ${asker}`}
        schema={question.schema}
        submitLabel="Send"
        busyLabel="Sending…"
        busy={busy}
        issues={issues}
        onSubmit={(content) => send({ action: 'accept', content })}
        actions={
          <button type="button" className="button" disabled={busy} onClick={() => send({ action: 'decline' })}>
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
