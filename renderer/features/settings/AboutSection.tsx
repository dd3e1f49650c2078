import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../components/CopyButton.js';
import { useAppInfo } from '../../queries/app.js';

export function AboutSection() {
  const { t } = useTranslation();
  const info = useAppInfo();
  return (
    <section className="card" aria-labelledby="about-title">
      <h2 id="about-title" className="card__title">
        {t('settings.about.title')}
      </h2>
      {info.isPending ? (
        <p className="muted">{t('settings.about.asking')}</p>
      ) : info.isError ? (
        <p className="error-text" role="alert">
          {t('settings.about.failed', { reason: info.error.message })}
        </p>
      ) : (
        <dl className="facts">
          <dt>{t('settings.about.version')}</dt>
          <dd data-testid="app-version" dir="ltr" translate="no">
            {`${info.data.name} ${info.data.version}`}
          </dd>
          <dt>{t('settings.about.dataFolder')}</dt>
          <dd className="facts__with-action">
            <code data-testid="data-dir" dir="ltr">
              {info.data.dataDir}
            </code>
            <CopyButton text={info.data.dataDir} label={t('settings.about.copyDataFolder')} />
          </dd>
          <dt>{t('settings.about.host')}</dt>
          <dd>{info.data.hostKind === 'electron' ? t('settings.about.hostElectron') : t('settings.about.hostBrowser')}</dd>
          <dt>{t('settings.about.runtime')}</dt>
          <dd dir="ltr" translate="no">
            {runtimeLine(info.data)}
          </dd>
        </dl>
      )}
    </section>
  );
}

/** Product names and versions: the same in every language. */
function runtimeLine(info: { runtime: { node: string; electron?: string }; platform: string }): string {
  return [`Node ${info.runtime.node}`, info.runtime.electron ? `Electron ${info.runtime.electron}` : null, info.platform].filter(Boolean).join(' · ');
}
