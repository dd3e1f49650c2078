import { useTranslation } from 'react-i18next';
import type { McpServerView } from '../../../shared/schemas/mcp.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { useDeleteMcpServer, usePutMcpServer, useRestartMcpServer } from '../../queries/mcp.js';

/** Log levels past a warning (RFC 5424, as MCP names them). */
const SEVERE = new Set(['error', 'critical', 'alert', 'emergency']);

/** Under an MCP server's bundle: how it is doing, why it failed (with its last stderr lines), what it logged, Restart and Remove. */
export function McpServerStatus({ server }: { server: McpServerView }) {
  const { t, i18n } = useTranslation();
  const restart = useRestartMcpServer();
  const remove = useDeleteMcpServer();
  const put = usePutMcpServer();
  const failure = restart.error ?? remove.error ?? put.error;
  // Asking to sign in is a step for the person, not a breakage.
  const signIn = server.authorizationUrl !== undefined;
  return (
    <div className={`mcp-status mcp-status--${signIn ? 'sign-in' : server.state}`}>
      <span className="list__meta">
        {`${t('mcpStatus.kind')} · `}
        <span className="mcp-status__state">{signIn ? t('mcpStatus.signInNeeded') : t(`mcpStatus.state.${server.state}`)}</span>
        {server.serverInfo ? ` · ${server.serverInfo.name} ${server.serverInfo.version}` : ''}
        {server.protocolVersion ? ` · ${t('mcpStatus.revision', { version: server.protocolVersion })}` : ''}
      </span>
      {server.error ? <span className={signIn ? 'list__meta' : 'bundle-problem'}>{server.error.message}</span> : null}
      {server.notice && server.state === 'connected' ? <span className="list__meta">{server.notice}</span> : null}
      {server.apps?.length ? <span className="list__meta">{t('mcpStatus.apps', { count: server.apps.length, tools: server.apps.join(', ') })}</span> : null}
      {server.leftOut?.length ? (
        <span className="list__meta" title={server.leftOut.map((tool) => `${tool.name}: ${tool.why}`).join('\n')}>
          {t('mcpStatus.leftOut', { count: server.leftOut.length, tools: server.leftOut.map((tool) => `${tool.name} (${tool.why})`).join('; ') })}
        </span>
      ) : null}
      {server.authorizationUrl ? (
        // Opens in the system browser (Electron's window-open guard), or a new tab of the browser host.
        <a className="button button--small button--primary mcp-status__sign-in" href={server.authorizationUrl} target="_blank" rel="noopener noreferrer" aria-label={t('mcpStatus.signInTo', { name: server.name })}>
          {t('mcpStatus.signIn')}
        </a>
      ) : null}
      {server.state === 'failed' && server.stderr.length > 0 ? (
        <details className="mcp-status__stderr">
          <summary>{t('mcpStatus.lastLines')}</summary>
          <pre>{server.stderr.join('\n')}</pre>
        </details>
      ) : null}
      {server.log?.length ? (
        <details className="mcp-status__stderr">
          <summary>{t('mcpStatus.logged', { count: server.log.length })}</summary>
          <ol className="mcp-status__log">
            {server.log.map((line, index) => (
              <li key={index}>
                <time dateTime={line.at}>{new Date(line.at).toLocaleTimeString(i18n.language)}</time>{' '}
                <span className={`mcp-status__level mcp-status__level--${SEVERE.has(line.level) ? 'severe' : line.level === 'warning' ? 'warning' : 'plain'}`}>{line.level}</span> {line.text}
              </li>
            ))}
          </ol>
        </details>
      ) : null}
      <span className="mcp-status__actions">
        {server.state === 'disabled' ? (
          // Off (an installed bundle starts so, until the person has looked at it): switched on, it starts.
          <button type="button" className="button button--small" aria-label={t('mcpStatus.switchOnLabel', { name: server.name })} disabled={put.isPending} onClick={() => put.mutate({ name: server.name, config: { ...server.config, disabled: false } })}>
            {t('mcpStatus.switchOn')}
          </button>
        ) : (
          <button type="button" className="button button--small" aria-label={t('mcpStatus.restartLabel', { name: server.name })} disabled={restart.isPending} onClick={() => restart.mutate({ name: server.name })}>
            {restart.isPending ? t('mcpStatus.restarting') : t('mcpStatus.restart')}
          </button>
        )}
        <button type="button" className="button button--small" aria-label={t('mcpStatus.removeLabel', { name: server.name })} disabled={remove.isPending} onClick={() => remove.mutate({ name: server.name })}>
          {t('mcpStatus.remove')}
        </button>
      </span>
      <ErrorLine message={failure ? errorMessage(failure, t('mcpStatus.noAnswer')) : null} />
    </div>
  );
}
