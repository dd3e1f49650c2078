import { Trans, useTranslation } from 'react-i18next';
import { LockIcon } from './components/icons.js';

/** Shown when the page was opened without the host's token. */
export function LockedScreen() {
  const { t } = useTranslation();
  return (
    <main className="locked">
      <div className="locked__panel">
        <LockIcon size={40} />
        <h1>{t('locked.title')}</h1>
        <p>
          <Trans i18nKey="locked.body" components={[<code dir="ltr" />]} />
        </p>
        <p className="muted">
          <Trans i18nKey="locked.where" components={[<code dir="ltr" />, <code dir="ltr" />]} />
        </p>
      </div>
    </main>
  );
}
