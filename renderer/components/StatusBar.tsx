import { useConnectionStatus, useTransportKind } from '../api/context.js';
import { useAppHealth, useAppInfo } from '../queries/app.js';

const STATUS_TEXT = {
  connected: 'Connected to core',
  connecting: 'Connecting to core…',
  reconnecting: 'Connection lost — reconnecting…',
  unauthorized: 'Access token refused — open the URL the host printed',
  unreachable: 'Core not answering — retrying…',
} as const;

/** Bottom bar: is the core there, and which host is this. */
export function StatusBar() {
  const stream = useConnectionStatus();
  const health = useAppHealth();
  const info = useAppInfo();
  const kind = useTransportKind();
  const state = stream === 'connected' && health.isError ? 'unreachable' : stream;
  const tone = state === 'connected' ? 'ok' : state === 'connecting' ? 'pending' : 'bad';

  return (
    <footer className="status-bar">
      <div className="status-bar__item" role="status" aria-live="polite" data-connection={state}>
        <span className={`status-dot status-dot--${tone}`} aria-hidden="true" />
        {STATUS_TEXT[state]}
      </div>
      <div className="status-bar__item status-bar__meta">
        {[kind === 'ipc' ? 'Desktop app' : 'Browser host', info.data ? `v${info.data.version}` : null]
          .filter(Boolean)
          .join(' · ')}
      </div>
    </footer>
  );
}
