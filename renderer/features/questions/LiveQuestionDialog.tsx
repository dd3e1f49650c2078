import { useRef, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { i18n } from '../../i18n/index.js';
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
          setFailure(found.length > 0 ? i18n.t('live.fixFields') : errorMessage(error, i18n.t('approval.notDelivered')));
        },
      },
    );
  };
  return { send, busy: answer.isPending, failure, issues };
}

/** Whose call it is, as the dialog says it. */
const WANTS = { agent: 'live.agentWants', script: 'live.scriptWants', recipe: 'live.recipeWants' } as const;

function askerName(from: LiveQuestion['from']): string {
  if (from.kind === 'mcp-server') return from.server;
  if (from.kind === 'mcp-client') return from.client;
  if (from.kind === 'mcp-app') return from.app;
  return from.path.join(' → ');
}

/**
 * Another app (an MCP client using the shared tools) or an agent tool wants
 * to run a tool that asks first: who (an agent's path), the tool, its
 * arguments, Allow once or Deny. Enter allows
 * (focus starts there); Esc denies. The other app waits meanwhile.
 */
function ClientApproval({ question, waiting }: { question: LiveQuestion; waiting: number }) {
  const { t } = useTranslation();
  const approval = question.approval!;
  const { send, busy, failure } = useSendAnswer(question);
  const allowButton = useRef<HTMLButtonElement>(null);
  const client = askerName(question.from);
  return (
    <Modal
      title={t('approval.title')}
      wide
      onDismiss={() => send({ action: 'decline' })}
      initialFocus={allowButton}
      description={
        question.from.kind === 'agent' || question.from.kind === 'script' || question.from.kind === 'recipe' ? (
          <p>
            <strong>{t('live.agentPath', { path: client, tool: approval.displayName })}</strong>
            <br />
            <Trans
              i18nKey={WANTS[question.from.kind]}
              values={{ tool: approval.displayName, slug: approval.slug }}
              components={[<strong />, <span className="muted" translate="no" />]}
            />
            {waiting > 0 ? t('live.moreWaiting', { count: waiting }) : ''}
          </p>
        ) : question.from.kind === 'mcp-app' ? (
          <p>
            <Trans
              i18nKey="live.appWants"
              values={{ app: question.from.app, tool: approval.displayName, slug: approval.slug, server: question.from.server }}
              components={[<strong />, <strong />, <span className="muted" />]}
            />
            <br />
            {t('live.asksEvery')}
            {waiting > 0 ? t('live.moreWaiting', { count: waiting }) : ''}
          </p>
        ) : (
          <p>
            <Trans i18nKey="live.clientWants" values={{ client, tool: approval.displayName, slug: approval.slug }} components={[<strong />, <strong />, <span className="muted" />]} />
            <br />
            {t('live.asksEvery')}
            {waiting > 0 ? t('live.moreWaiting', { count: waiting }) : ''}
          </p>
        )
      }
    >
      <h3 className="subhead">{t('live.arguments')}</h3>
      <pre className="code-block" aria-label={t('live.arguments')} dir="ltr">
        {JSON.stringify(approval.args, null, 2)}
      </pre>
      <ErrorLine message={failure} />
      <div className="modal__actions">
        <button ref={allowButton} type="button" className="button button--primary" disabled={busy} onClick={() => send({ action: 'accept', content: {} })}>
          {t('approval.allowOnce')}
        </button>
        <button type="button" className="button button--danger" disabled={busy} onClick={() => send({ action: 'decline' })}>
          {t('approval.deny')}
        </button>
        <span className="muted modal__keys">
          <Trans i18nKey="approval.enterAllows" components={[<kbd className="kbd" />]} />
          <Trans i18nKey="approval.escDenies" components={[<kbd className="kbd" />]} />
        </span>
      </div>
    </Modal>
  );
}

function QuestionForm({ question, waiting }: { question: LiveQuestion; waiting: number }) {
  const { t } = useTranslation();
  const { send, busy, failure, issues } = useSendAnswer(question);
  const asker = askerName(question.from);
  return (
    <Modal title={t('live.asks')} onDismiss={() => send({ action: 'cancel' })} wide>
      <p className="muted live-question__from">
        <Trans i18nKey="live.fromServer" values={{ server: asker }} components={[<strong />]} />
        {waiting > 0 ? t('live.moreWaiting', { count: waiting }) : ''}
      </p>
      <p className="ask__question">{question.message}</p>
      <ArgumentForm
        name={t('live.answerTo', { asker })}
        schema={question.schema}
        submitLabel={t('live.send')}
        busyLabel={t('live.sending')}
        busy={busy}
        issues={issues}
        onSubmit={(content) => send({ action: 'accept', content })}
        actions={
          <button type="button" className="button" disabled={busy} onClick={() => send({ action: 'decline' })}>
            {t('live.decline')}
          </button>
        }
      />
      <ErrorLine message={failure} />
      <p className="muted modal__keys">
        <Trans i18nKey="live.escCancels" components={[<kbd className="kbd" />]} />
      </p>
    </Modal>
  );
}
