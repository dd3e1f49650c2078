import { AgentSteps } from '../../components/AgentSteps.js';
import { HookRuns } from '../../components/HookRuns.js';
import { useTranslation } from 'react-i18next';
import type { InvokeResult, RpcMessage, TraceEntry } from '../../../shared/schemas/invocation.js';
import { ContentBlocks } from '../../components/ContentBlocks.js';
import { ValueView, withNote } from './ValueView.js';
import { isContentBlocks } from '../../../shared/mcp/content-blocks.js';

/** Paths of a value and what is wrong at each (an outputSchema's refusal). */
function Issues({ issues }: { issues: { path: string; message: string }[] | undefined }) {
  if (!issues?.length) return null;
  return (
    <ul className="issues mono">
      {issues.map((issue) => (
        <li key={issue.path + issue.message}>
          {issue.path} {issue.message}
        </li>
      ))}
    </ul>
  );
}

function Headers({ headers }: { headers: Record<string, string> }) {
  const { t } = useTranslation();
  const entries = Object.entries(headers);
  if (entries.length === 0) return <p className="muted">{t('response.noHeaders')}</p>;
  return (
    <dl className="kv">
      {entries.map(([name, value]) => (
        <div key={name} className="kv__row">
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Attempt({ entry }: { entry: TraceEntry }) {
  const { t } = useTranslation();
  return (
    <details className="attempt" open={entry.attempt === 1}>
      <summary>
        <span className="attempt__title">{entry.step === 'token' ? t('response.tokenRequest') : t('response.attempt', { number: entry.attempt })}</span>
        <span className={`status-pill ${entry.response && entry.response.status < 400 ? 'status-pill--ok' : 'status-pill--bad'}`}>
          {entry.response ? t('runs.http', { status: entry.response.status }) : (entry.error?.code ?? t('response.noResponse'))}
        </span>
        <span className="muted">{t('common.milliseconds', { value: Math.round(entry.durationMs) })}</span>
        {entry.retryReason ? (
          <span className="muted">
            {entry.delayBeforeNextMs !== undefined
              ? t('response.retriedAfter', { reason: entry.retryReason, ms: entry.delayBeforeNextMs })
              : t('response.retried', { reason: entry.retryReason })}
          </span>
        ) : null}
      </summary>
      <h4 className="subhead">{t('response.request')}</h4>
      <p className="mono">
        <strong>{entry.request.method}</strong> {entry.request.url}
      </p>
      <Headers headers={entry.request.headers} />
      {entry.request.bodyPreview ? <pre className="code-block">{entry.request.bodyPreview}</pre> : null}
      {entry.redirects?.map((redirect) => (
        <p key={redirect.location} className="muted">
          {t('response.redirect', { status: redirect.status, location: redirect.location })}
        </p>
      ))}
      {entry.response ? (
        <>
          <h4 className="subhead">{t(entry.response.truncated ? 'response.responsePreview' : 'response.responseBytes', { size: entry.response.size })}</h4>
          <Headers headers={entry.response.headers} />
          <pre className="code-block">{entry.response.bodyPreview}</pre>
        </>
      ) : null}
      {entry.error ? <p className="error-text">{entry.error.message}</p> : null}
    </details>
  );
}

/** An MCP call's JSON-RPC messages, in order, each folded to its first line until opened. */
function RpcExchange({ messages }: { messages: RpcMessage[] }) {
  const { t } = useTranslation();
  return (
    <section aria-label={t('response.rpc')} className="rpc">
      <h3 className="subhead">{t('response.rpcMessages', { count: messages.length })}</h3>
      <ol className="rpc__list">
        {messages.map((message, index) => {
          const parsed = summary(message.text);
          return (
            <li key={index}>
              <details className="attempt">
                <summary>
                  <span className={`status-pill ${message.direction === 'sent' ? 'status-pill--pending' : 'status-pill--ok'}`}>{message.direction === 'sent' ? t('response.sent') : t('response.received')}</span>
                  <code>{parsed}</code>
                  <span className="muted" dir="ltr">+{t('common.milliseconds', { value: message.atMs })}</span>
                </summary>
                <pre className="code-block">{message.truncated ? withNote(message.text, t('response.cut16')) : message.text}</pre>
              </details>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** "tools/call #3", "result #3", "notifications/progress": what a message is, at a glance. */
function summary(text: string): string {
  try {
    const message = JSON.parse(text) as { id?: string | number; method?: string; error?: unknown };
    const id = typeof message.id === 'string' || typeof message.id === 'number' ? ` #${message.id}` : '';
    if (message.method) return `${message.method}${id}`;
    return `${message.error ? 'error' : 'result'}${id}`;
  } catch {
    return 'message';
  }
}

/** The "Response" region: the verdict first, then the value, then every attempt. */
export function ResponseView({ result, onAllowHost }: { result: InvokeResult; onAllowHost?: (host: string) => void }) {
  const { t } = useTranslation();
  return (
    <section className="response" aria-label={t('response.region')}>
      <div className="response__verdict">
        <span className={`status-pill ${result.ok ? 'status-pill--ok' : 'status-pill--bad'}`}>{result.ok ? t('runs.ok') : result.error.code}</span>
        {result.ok && result.status !== undefined ? <span>{t('runs.http', { status: result.status })}</span> : null}
        {!result.ok && result.error.status !== undefined ? <span>{t('runs.http', { status: result.error.status })}</span> : null}
        <span className="muted">{t('response.attempts', { count: result.attempts, ms: Math.round(result.durationMs) })}</span>
        {result.memoryBytes ? <span className="muted">{t('response.memory', { kilobytes: Math.ceil(result.memoryBytes / 1024) })}</span> : null}
      </div>
      {result.ok ? (
        <>
          {result.outputMismatch ? (
            <div className="callout callout--warn" role="status">
              <p>{t('response.mismatchTaken')}</p>
              <p>{result.outputMismatch.message}</p>
              <Issues issues={result.outputMismatch.issues} />
            </div>
          ) : null}
          <ValueView value={result.value} heading={t('response.value')} />
          <ScriptLogs logs={result.logs} />
          {isContentBlocks(result.content) ? (
            <>
              <h4 className="subhead">{t('response.contentBlocks')}</h4>
              <ContentBlocks blocks={result.content} />
            </>
          ) : null}
        </>
      ) : (
        <div className="callout callout--bad" role="alert">
          <p>{result.error.message}</p>
          {result.error.snippet && result.error.answer === undefined ? <pre className="code-block">{result.error.snippet}</pre> : null}
          <Issues issues={result.error.issues} />
          {result.error.code === 'host_not_allowed' && result.error.host && onAllowHost ? (
            <button type="button" className="button" onClick={() => onAllowHost(result.error.host!)}>
              {t('toolCall.allowHost', { host: result.error.host })}
            </button>
          ) : null}
        </div>
      )}
      {/* An answer its outputSchema refused, whole, beside the problems above: what to fix the schema (or the API) by. */}
      {!result.ok && result.error.answer !== undefined ? <ValueView value={result.error.answer} heading={t('response.answered')} /> : null}
      {result.steps?.length ? <AgentSteps steps={result.steps} open={result.steps.some((step) => step.stepId !== undefined)} /> : null}
      {result.hooks?.length ? <HookRuns runs={result.hooks} /> : null}
      {result.trace?.length ? (
        <>
          <h3 className="subhead">{t('response.attemptsTitle')}</h3>
          {result.trace.map((entry) => (
            <Attempt key={`${entry.attempt}-${entry.step ?? 'request'}`} entry={entry} />
          ))}
        </>
      ) : null}
      {result.rpc?.length ? <RpcExchange messages={result.rpc} /> : null}
    </section>
  );
}

/** What a script wrote to its console during the run, in order. */
function ScriptLogs({ logs }: { logs: InvokeResult['logs'] }) {
  const { t } = useTranslation();
  if (!logs?.length) return null;
  return (
    <>
      <h4 className="subhead">{t('response.console')}</h4>
      <ol className="script-logs code-block" aria-label={t('response.console')} translate="no" dir="ltr">
        {logs.map((line, index) => (
          <li key={index} className={`script-logs__line--${line.level}`}>
            {line.text}
          </li>
        ))}
      </ol>
    </>
  );
}
