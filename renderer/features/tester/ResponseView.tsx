import { AgentSteps } from '../../components/AgentSteps.js';
import { useDeferredValue, useId, useMemo, useState } from 'react';
import { lineFinder, MAX_MATCHES, type FoundLine } from './line-finder.js';
import type { InvokeResult, RpcMessage, TraceEntry } from '../../../shared/schemas/invocation.js';
import { ToolValue } from '../../components/ContentBlocks.js';

const PREVIEW_LIMIT = 50_000;

function Headers({ headers }: { headers: Record<string, string> }) {
  const entries = Object.entries(headers);
  if (entries.length === 0) return <p className="muted">No headers.</p>;
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
  return (
    <details className="attempt" open={entry.attempt === 1}>
      <summary>
        <span className="attempt__title">{entry.step === 'token' ? 'Token request' : `Attempt ${entry.attempt}`}</span>
        <span className={`status-pill ${entry.response && entry.response.status < 400 ? 'status-pill--ok' : 'status-pill--bad'}`}>
          {entry.response ? `HTTP ${entry.response.status}` : (entry.error?.code ?? 'no response')}
        </span>
        <span className="muted">{Math.round(entry.durationMs)} ms</span>
        {entry.retryReason ? (
          <span className="muted">
            retried: {entry.retryReason}
            {entry.delayBeforeNextMs !== undefined ? `, after ${entry.delayBeforeNextMs} ms` : ''}
          </span>
        ) : null}
      </summary>
      <h4 className="subhead">Request</h4>
      <p className="mono">
        <strong>{entry.request.method}</strong> {entry.request.url}
      </p>
      <Headers headers={entry.request.headers} />
      {entry.request.bodyPreview ? <pre className="code-block">{entry.request.bodyPreview}</pre> : null}
      {entry.redirects?.map((redirect) => (
        <p key={redirect.location} className="muted">
          ↪ {redirect.status} to {redirect.location}
        </p>
      ))}
      {entry.response ? (
        <>
          <h4 className="subhead">
            Response · {entry.response.size} bytes{entry.response.truncated ? ' (preview)' : ''}
          </h4>
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
  return (
    <section aria-label="JSON-RPC exchange" className="rpc">
      <h3 className="subhead">JSON-RPC exchange · {messages.length} messages</h3>
      <ol className="rpc__list">
        {messages.map((message, index) => {
          const parsed = summary(message.text);
          return (
            <li key={index}>
              <details className="attempt">
                <summary>
                  <span className={`status-pill ${message.direction === 'sent' ? 'status-pill--pending' : 'status-pill--ok'}`}>{message.direction === 'sent' ? '→ sent' : '← received'}</span>
                  <code>{parsed}</code>
                  <span className="muted">+{message.atMs} ms</span>
                </summary>
                <pre className="code-block">
                  {message.text}
                  {message.truncated ? '\n… (cut at 16 KB)' : ''}
                </pre>
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
  const matches = useMemo(() => find(query), [find, query]);
  return (
    <div className="value-search__found" role="region" aria-label="Matches">
      <p className="muted" role="status">
        {matches.length === 0 ? `No line contains “${query.trim()}”.` : `${matches.length}${matches.length === MAX_MATCHES ? '+' : ''} ${matches.length === 1 ? 'line' : 'lines'} with “${query.trim()}”`}
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
    <section className="response" aria-label="Response">
      <div className="response__verdict">
        <span className={`status-pill ${result.ok ? 'status-pill--ok' : 'status-pill--bad'}`}>{result.ok ? 'ok' : result.error.code}</span>
        {result.ok && result.status !== undefined ? <span>HTTP {result.status}</span> : null}
        {!result.ok && result.error.status !== undefined ? <span>HTTP {result.error.status}</span> : null}
        <span className="muted">
          {Math.round(result.durationMs)} ms · {result.attempts} {result.attempts === 1 ? 'attempt' : 'attempts'}
        </span>
      </div>
      {result.ok ? (
        <>
          <div className="response__value-head">
            <h3 className="subhead">Value (after extraction, checked against outputSchema)</h3>
            <label className="visually-hidden" htmlFor={searchId}>
              Find in value
            </label>
            <input
              id={searchId}
              className="input input--small value-search"
              type="search"
              placeholder="Find in value…"
              value={query}
              onChange={(event) => setQuery(event.target.value)}
            />
            {structured ? (
              <div role="tablist" aria-label="Value view" className="tabs">
                <button type="button" role="tab" aria-selected={view === 'tree'} className="tab" onClick={() => setView('tree')}>
                  Tree
                </button>
                <button type="button" role="tab" aria-selected={view === 'raw'} className="tab" onClick={() => setView('raw')}>
                  Raw
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
              {valueText!.length > PREVIEW_LIMIT ? `${valueText!.slice(0, PREVIEW_LIMIT)}\n… (${valueText!.length} characters; the rest is not shown)` : valueText}
            </pre>
          )}
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
              Allow {result.error.host}
            </button>
          ) : null}
        </div>
      )}
      {result.steps?.length ? <AgentSteps steps={result.steps} /> : null}
      {result.trace?.length ? (
        <>
          <h3 className="subhead">Attempts</h3>
          {result.trace.map((entry) => (
            <Attempt key={`${entry.attempt}-${entry.step ?? 'request'}`} entry={entry} />
          ))}
        </>
      ) : null}
      {result.rpc?.length ? <RpcExchange messages={result.rpc} /> : null}
    </section>
  );
}
