import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { McpShareConnection } from '../../../shared/schemas/mcp-share.js';
import { useApi } from '../../api/context.js';
import { CopyButton } from '../../components/CopyButton.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { Switch } from '../../components/Switch.js';
import { useConfigureMcpShare, useMcpActivity, useMcpShareStatus } from '../../queries/mcp-share.js';

function Snippet({ title, hint, text }: { title: string; hint: string; text: string }) {
  return (
    <div className="share-snippet">
      <div className="share-snippet__head">
        <h3 className="subhead">{title}</h3>
        <CopyButton text={text} label={`Copy ${title}`} />
      </div>
      <p className="muted">{hint}</p>
      <pre className="code-block" aria-label={title}>
        {text}
      </pre>
    </div>
  );
}

/**
 * Toolbelt as an MCP server: on/off, port, what it shares, who is connected,
 * the settings other apps paste (shown on request: they hold the token), and
 * the calls other apps made.
 */
export function McpShareSection() {
  const id = useId();
  const api = useApi();
  const status = useMcpShareStatus();
  const configure = useConfigureMcpShare();
  const [port, setPort] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [connection, setConnection] = useState<McpShareConnection | null>(null);
  const [confirmingToken, setConfirmingToken] = useState(false);
  const reveal = useMutation({ mutationFn: () => api.mcpShare.connection(), onSuccess: setConnection, onError: (failure) => setError(errorMessage(failure)) });
  const change = (params: Parameters<typeof configure.mutate>[0], after?: () => void) => {
    setError(null);
    configure.mutate(params, {
      onSuccess: () => {
        after?.();
        // Shown settings would hold the old port or token.
        if (connection) reveal.mutate();
      },
      onError: (failure) => setError(errorMessage(failure)),
    });
  };
  const data = status.data;
  const portValue = port || String(data?.port ?? '');
  const portNumber = Number(portValue);
  const portProblem = !/^\d+$/.test(portValue) || portNumber < 1024 || portNumber > 65535 ? 'Use a port from 1024 to 65535.' : null;

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <div className="card__head">
        <h2 id={`${id}-title`} className="card__title">
          MCP server
        </h2>
        {data ? <Switch checked={data.enabled} label="Serve shared tools over MCP" disabled={configure.isPending} onChange={(enabled) => change({ enabled })} /> : null}
      </div>
      <p className="muted card__description">
        Other apps (Claude Desktop, Cursor, any MCP client) can use the tools of the bundles you share — switch on <strong>Share over MCP</strong> on a bundle in
        Tools. Tools that ask before every call ask here, in this window.
      </p>
      {data ? (
        <p role="status" className={data.state === 'failed' ? 'field__error' : 'muted'}>
          {data.state === 'running'
            ? `Running at ${data.url} · ${data.toolCount} ${data.toolCount === 1 ? 'tool' : 'tools'} shared · ${data.clients.length ? `connected: ${data.clients.join(', ')}` : 'no app connected'}`
            : data.state === 'failed'
              ? (data.failure?.message ?? 'It could not start.')
              : `Off · ${data.toolCount} ${data.toolCount === 1 ? 'tool' : 'tools'} would be shared`}
        </p>
      ) : null}
      <form
        className="inline-form"
        aria-label="MCP server port"
        onSubmit={(event) => {
          event.preventDefault();
          if (!portProblem) change({ port: portNumber }, () => setPort(''));
        }}
      >
        <label className="field__label" htmlFor={`${id}-port`}>
          Port on 127.0.0.1
        </label>
        <input id={`${id}-port`} className="input input--narrow" inputMode="numeric" value={portValue} onChange={(event) => setPort(event.target.value)} aria-invalid={portProblem ? true : undefined} />
        <button type="submit" className="button" disabled={!port || portProblem !== null || configure.isPending}>
          Use this port
        </button>
      </form>
      {port && portProblem ? <p className="field__error">{portProblem}</p> : null}
      {data ? (
        <label className="inline-form mcp-share__discovery">
          <span className="field__label">How apps get the tools</span>
          <select className="input mcp-share__discovery-select" value={data.discovery} disabled={configure.isPending} onChange={(event) => change({ discovery: event.target.value as typeof data.discovery })}>
            <option value="auto">Automatic</option>
            <option value="search">Found by search</option>
            <option value="all">All listed</option>
          </select>
          <span className="muted">
            {data.listing === 'search' ? 'Apps see tool_search and add what they find to their list.' : 'Apps see every shared tool, a hundred per page.'}
          </span>
        </label>
      ) : null}
      <div className="button-row">
        {connection ? (
          <button type="button" className="button" onClick={() => setConnection(null)}>
            Hide connection settings
          </button>
        ) : (
          <button type="button" className="button" disabled={reveal.isPending} onClick={() => reveal.mutate()}>
            Show connection settings
          </button>
        )}
        <button type="button" className="button" disabled={configure.isPending || confirmingToken} onClick={() => setConfirmingToken(true)}>
          New token
        </button>
      </div>
      {confirmingToken ? (
        <div className="callout callout--warn" role="alertdialog" aria-label="Replace the token?">
          <p>Apps that use the current token stop working until you give them the new one.</p>
          <div className="button-row">
            <button type="button" className="button button--danger" autoFocus onClick={() => change({ newToken: true }, () => setConfirmingToken(false))}>
              Replace token
            </button>
            <button type="button" className="button" onClick={() => setConfirmingToken(false)}>
              Keep it
            </button>
          </div>
        </div>
      ) : null}
      {connection ? (
        <div className="stack">
          <p className="muted">These hold the access token: paste them only into apps you trust. New token locks out every app that has the old one.</p>
          <Snippet title="Settings for HTTP clients" hint="Cursor, Claude Code, VS Code and others that connect to a URL (while Toolbelt runs, with the server on)." text={connection.httpSnippet} />
          <Snippet title="Settings for command clients" hint="Claude Desktop and others that start a command. Tools that ask first are refused there: no window to ask in." text={connection.stdioSnippet} />
        </div>
      ) : null}
      <ErrorLine message={error} />
      <McpActivityList />
    </section>
  );
}

function McpActivityList() {
  const activity = useMcpActivity();
  const calls = activity.data ?? [];
  return (
    <div className="stack">
      <h3 className="subhead">Calls from other apps</h3>
      {calls.length === 0 ? (
        <p className="muted">No app has called a shared tool yet.</p>
      ) : (
        <ul className="activity-list" aria-label="Calls from other apps">
          {calls.map((call) =>
            call.event === 'session-ended' ? (
              <li key={call.id} className="activity-list__item">
                <span className="status-pill">ended</span>
                <span>
                  <strong>{call.client}</strong>: {call.result}
                </span>
                <span className="muted">{new Date(call.at).toLocaleString()}</span>
              </li>
            ) : (
            <li key={call.id} className="activity-list__item">
              <span className={call.ok ? 'status-pill status-pill--ok' : 'status-pill status-pill--bad'}>{call.ok ? 'ok' : 'failed'}</span>
              <span>
                <strong>{call.client}</strong> ran <strong>{call.displayName ?? call.tool}</strong>
                {call.approval === 'approved' ? ' (you allowed it)' : call.approval === 'declined' ? ' (you denied it)' : call.approval === 'no-window' ? ' (refused: no window to ask in)' : ''}
              </span>
              <span className="muted">
                {new Date(call.at).toLocaleString()} · {call.durationMs} ms
              </span>
              <details className="activity-list__details">
                <summary>Arguments and answer</summary>
                <pre className="code-block">{call.args}</pre>
                <pre className="code-block">{call.result}</pre>
              </details>
            </li>
            ),
          )}
        </ul>
      )}
    </div>
  );
}
