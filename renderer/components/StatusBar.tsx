import { useTranslation } from 'react-i18next';
import { useConnectionStatus, useTransportKind } from '../api/context.js';
import { useAppHealth, useAppInfo } from '../queries/app.js';

/** Bottom bar: is the core there, and which host is this. */
export function StatusBar() {
  const { t } = useTranslation();
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
        {t(`status.${state}`)}
      </div>
      <div className="status-bar__item status-bar__meta">
        {[kind === 'ipc' ? t('status.desktop') : t('status.browser'), info.data ? t('status.version', { version: info.data.version }) : null]
          .filter(Boolean)
          .join(' · ')}
      </div>
    </footer>
  );
}
