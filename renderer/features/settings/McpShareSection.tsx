import { Trans, useTranslation } from 'react-i18next';
import { HookRuns } from '../../components/HookRuns.js';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { McpShareConnection, McpShareStatus } from '../../../shared/schemas/mcp-share.js';
import { relativeTime, useNow } from '../../components/relative-time.js';
import { i18n } from '../../i18n/index.js';
import { useApi } from '../../api/context.js';
import { CopyButton } from '../../components/CopyButton.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { Switch } from '../../components/Switch.js';
import { useConfigureMcpShare, useMcpActivity, useMcpShareStatus } from '../../queries/mcp-share.js';

/** A client quiet this long with nothing open has probably left without ending its session. */
const QUIET_AFTER_MS = 2 * 60_000;

/** "connected: Claude · quiet: Inspector (last request 12 minutes ago)": a client that left is not shown connected. */
function clientsLine(clients: McpShareStatus['clients'], now: number): string {
  if (clients.length === 0) return i18n.t('share.noApp');
  const connected = clients.filter((client) => client.open || now - Date.parse(client.lastSeenAt) < QUIET_AFTER_MS);
  const quiet = clients.filter((client) => !connected.includes(client));
  return [
    connected.length ? i18n.t('share.connected', { clients: connected.map((client) => client.name) }) : null,
    quiet.length ? i18n.t('share.quiet', { clients: quiet.map((client) => i18n.t('share.quietClient', { name: client.name, when: relativeTime(client.lastSeenAt, now) })) }) : null,
  ]
    .filter((part) => part !== null)
    .join(' · ');
}

function Snippet({ title, hint, text }: { title: string; hint: string; text: string }) {
  const { t } = useTranslation();
  return (
    <div className="share-snippet">
      <div className="share-snippet__head">
        <h3 className="subhead">{title}</h3>
        <CopyButton text={text} label={t('share.copy', { title })} />
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
  const { t } = useTranslation();
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
  const now = useNow(30_000);
  const portValue = port || String(data?.port ?? '');
  const portNumber = Number(portValue);
  const portProblem = !/^\d+$/.test(portValue) || portNumber < 1024 || portNumber > 65535 ? t('share.portProblem') : null;

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <div className="card__head">
        <h2 id={`${id}-title`} className="card__title">
          {t('share.title')}
        </h2>
        {data ? <Switch checked={data.enabled} label={t('share.switch')} disabled={configure.isPending} onChange={(enabled) => change({ enabled })} /> : null}
      </div>
      <p className="muted card__description">
        <Trans i18nKey="share.description" components={[<strong />]} />
      </p>
      {data ? (
        <p role="status" className={data.state === 'failed' ? 'field__error' : 'muted'}>
          {data.state === 'running'
            ? t('share.running', {
                url: data.url,
                tools: t('share.toolsShared', { count: data.toolCount }),
                clients: clientsLine(data.clients, now),
              })
            : data.state === 'failed'
              ? (data.failure?.message ?? t('share.couldNotStart'))
              : t('share.off', { tools: t('share.wouldShare', { count: data.toolCount }) })}
        </p>
      ) : null}
      <form
        className="inline-form"
        aria-label={t('share.portForm')}
        onSubmit={(event) => {
          event.preventDefault();
          if (!portProblem) change({ port: portNumber }, () => setPort(''));
        }}
      >
        <label className="field__label" htmlFor={`${id}-port`}>
          {t('share.port')}
        </label>
        <input id={`${id}-port`} className="input input--narrow" inputMode="numeric" value={portValue} onChange={(event) => setPort(event.target.value)} aria-invalid={portProblem ? true : undefined} />
        <button type="submit" className="button" disabled={!port || portProblem !== null || configure.isPending}>
          {t('share.usePort')}
        </button>
      </form>
      {port && portProblem ? <p className="field__error">{portProblem}</p> : null}
      {data ? (
        <label className="inline-form mcp-share__discovery">
          <span className="field__label">{t('share.discovery')}</span>
          <select className="input mcp-share__discovery-select" value={data.discovery} disabled={configure.isPending} onChange={(event) => change({ discovery: event.target.value as typeof data.discovery })}>
            <option value="auto">{t('discovery.auto')}</option>
            <option value="search">{t('discovery.search')}</option>
            <option value="all">{t('share.allListed')}</option>
          </select>
          <span className="muted">{data.listing === 'search' ? t('share.bySearchHint') : t('share.allHint')}</span>
        </label>
      ) : null}
      <div className="button-row">
        {connection ? (
          <button type="button" className="button" onClick={() => setConnection(null)}>
            {t('share.hideSettings')}
          </button>
        ) : (
          <button type="button" className="button" disabled={reveal.isPending} onClick={() => reveal.mutate()}>
            {t('share.showSettings')}
          </button>
        )}
        <button type="button" className="button" disabled={configure.isPending || confirmingToken} onClick={() => setConfirmingToken(true)}>
          {t('share.newToken')}
        </button>
      </div>
      {confirmingToken ? (
        <div className="callout callout--warn" role="alertdialog" aria-label={t('share.replaceQuestion')}>
          <p>{t('share.replaceWarning')}</p>
          <div className="button-row">
            <button type="button" className="button button--danger" autoFocus onClick={() => change({ newToken: true }, () => setConfirmingToken(false))}>
              {t('share.replace')}
            </button>
            <button type="button" className="button" onClick={() => setConfirmingToken(false)}>
              {t('share.keep')}
            </button>
          </div>
        </div>
      ) : null}
      {connection ? (
        <div className="stack">
          <p className="muted">{t('share.holdToken')}</p>
          <Snippet title={t('share.httpTitle')} hint={t('share.httpHint')} text={connection.httpSnippet} />
          <Snippet title={t('share.stdioTitle')} hint={t('share.stdioHint')} text={connection.stdioSnippet} />
        </div>
      ) : null}
      <ErrorLine message={error} />
      <McpActivityList />
    </section>
  );
}

function McpActivityList() {
  const { t, i18n } = useTranslation();
  const activity = useMcpActivity();
  const calls = activity.data ?? [];
  return (
    <div className="stack">
      <h3 className="subhead">{t('share.calls')}</h3>
      {calls.length === 0 ? (
        <p className="muted">{t('share.noCalls')}</p>
      ) : (
        <ul className="activity-list" aria-label={t('share.calls')}>
          {calls.map((call) =>
            call.event === 'session-ended' ? (
              <li key={call.id} className="activity-list__item">
                <span className="status-pill">{t('share.ended')}</span>
                <span>
                  <strong>{call.client}</strong>: {call.result}
                </span>
                <span className="muted">{new Date(call.at).toLocaleString(i18n.language)}</span>
              </li>
            ) : (
            <li key={call.id} className="activity-list__item">
              <span className={call.ok ? 'status-pill status-pill--ok' : 'status-pill status-pill--bad'}>{call.ok ? t('share.ok') : t('share.failed')}</span>
              <span>
                <Trans i18nKey="share.ran" values={{ client: call.client, tool: call.displayName ?? call.tool }} components={[<strong />, <strong />]} />
                {call.approval === 'approved' ? t('share.youAllowed') : call.approval === 'declined' ? t('share.youDenied') : call.approval === 'no-window' ? t('share.noWindow') : ''}
              </span>
              <span className="muted">
                {`${new Date(call.at).toLocaleString(i18n.language)} · ${t('common.milliseconds', { value: call.durationMs })}`}
              </span>
              {call.hooks?.length ? <HookRuns runs={call.hooks} /> : null}
              <details className="activity-list__details">
                <summary>{t('share.argsAndAnswer')}</summary>
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
