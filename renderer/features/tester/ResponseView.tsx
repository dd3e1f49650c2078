import { AgentSteps } from '../../components/AgentSteps.js';
import { HookRuns } from '../../components/HookRuns.js';
import { useDeferredValue, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { lineFinder, MAX_MATCHES, type FoundLine } from './line-finder.js';
import type { InvokeResult, RpcMessage, TraceEntry } from '../../../shared/schemas/invocation.js';
import { ContentBlocks, ToolValue } from '../../components/ContentBlocks.js';
import { isContentBlocks } from '../../../shared/mcp/content-blocks.js';

const PREVIEW_LIMIT = 50_000;
/** A value shown in part, with the note of what is left out on a line of its own. */
const withNote = (text: string, note: string) => `${text}\n${note}`;

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

function FoundLines({ find, query }: { find: (query: string) => FoundLine[]; query: string }) {
  const { t } = useTranslation();
  const matches = useMemo(() => find(query), [find, query]);
  const said = { count: matches.length, query: query.trim() };
  return (
    <div className="value-search__found" role="region" aria-label={t('response.matches')}>
      <p className="muted" role="status">
        {matches.length === 0 ? t('response.noLine', said) : matches.length === MAX_MATCHES ? t('response.linesCapped', said) : t('response.lines', said)}
      </p>
      {matches.length > 0 ? (
        <ol className="code-block value-search__lines">
          {matches.map((match) => (
            <li key={match.line} value={match.line}>
              <code>{match.text}</code>
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}

/** The "Response" region: the verdict first, then the value, then every attempt. */
export function ResponseView({ result, onAllowHost }: { result: InvokeResult; onAllowHost?: (host: string) => void }) {
  const { t } = useTranslation();
  // Made once per result, not on every key typed into the find box (a 5 MB value took ~100 ms to print).
  const valueText = useMemo(() => (result.ok ? (JSON.stringify(result.value, null, 2) ?? 'null') : null), [result]);
  const find = useMemo(() => lineFinder(valueText ?? ''), [valueText]);
  const structured = result.ok && result.value !== null && typeof result.value === 'object';
  const [view, setView] = useState<'tree' | 'raw'>('tree');
  const [query, setQuery] = useState('');
  // The box shows each key at once; the lines found follow when the page has a moment.
  const deferredQuery = useDeferredValue(query);
  const searchId = useId();
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
          <div className="response__value-head">
            <h3 className="subhead">{t('response.value')}</h3>
            <label className="visually-hidden" htmlFor={searchId}>
              {t('response.find')}
            </label>
            <input
              id={searchId}
              className="input input--small value-search"
              type="search"
              placeholder={t('response.findPlaceholder')}
              value={query}
              onChange={(event) => setQuery(event.target.value)}
            />
            {structured ? (
              <div role="tablist" aria-label={t('response.view')} className="tabs">
                <button type="button" role="tab" aria-selected={view === 'tree'} className="tab" onClick={() => setView('tree')}>
                  {t('response.tree')}
                </button>
                <button type="button" role="tab" aria-selected={view === 'raw'} className="tab" onClick={() => setView('raw')}>
                  {t('response.raw')}
                </button>
              </div>
            ) : null}
          </div>
          {query.trim() ? (
            <FoundLines find={find} query={deferredQuery} />
          ) : structured && view === 'tree' && valueText!.length <= PREVIEW_LIMIT ? (
            <div className="code-block" data-testid="tester-value">
              <ToolValue value={result.value} />
            </div>
          ) : (
            <pre className="code-block" data-testid="tester-value">
              {valueText!.length > PREVIEW_LIMIT ? withNote(valueText!.slice(0, PREVIEW_LIMIT), t('response.restNotShown', { chars: valueText!.length })) : valueText}
            </pre>
          )}
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
          {result.error.snippet ? <pre className="code-block">{result.error.snippet}</pre> : null}
          {result.error.issues?.map((issue) => (
            <p key={issue.path + issue.message} className="mono">
              {issue.path} {issue.message}
            </p>
          ))}
          {result.error.code === 'host_not_allowed' && result.error.host && onAllowHost ? (
            <button type="button" className="button" onClick={() => onAllowHost(result.error.host!)}>
              {t('toolCall.allowHost', { host: result.error.host })}
            </button>
          ) : null}
        </div>
      )}
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
