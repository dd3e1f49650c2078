import { Trans, useTranslation } from 'react-i18next';
import { Kbd } from '../../components/Kbd.js';
import { SCREENS } from '../../state/ui.js';

export function ShortcutsSection() {
  const { t } = useTranslation();
  return (
    <section className="card" aria-labelledby="shortcuts-title">
      <h2 id="shortcuts-title" className="card__title">
        {t('settings.shortcuts.title')}
      </h2>
      <dl className="facts">
        {SCREENS.map((screen) => (
          <div key={screen.id} className="facts__row">
            <dt>{t('settings.shortcuts.goTo', { screen: t(`screens.${screen.id}`) })}</dt>
            <dd>
              <Kbd shortcut={screen.shortcut} />
            </dd>
          </div>
        ))}
        <div className="facts__row">
          <dt>{t('settings.shortcuts.openSettings')}</dt>
          <dd>
            <Kbd shortcut="," />
          </dd>
        </div>
        <div className="facts__row">
          <dt>{t('settings.shortcuts.newChat')}</dt>
          <dd>
            <Trans i18nKey="settings.shortcuts.newChatKeys" components={[<Kbd shortcut="N" />, <Kbd shortcut="Shift+O" />]} />
          </dd>
        </div>
        <div className="facts__row">
          <dt>{t('settings.shortcuts.palette')}</dt>
          <dd>
            <Trans i18nKey="settings.shortcuts.paletteKeys" components={[<Kbd shortcut="K" />, <kbd className="kbd" />]} />
          </dd>
        </div>
        <div className="facts__row">
          <dt>{t('settings.shortcuts.stop')}</dt>
          <dd>
            <kbd className="kbd">{ESCAPE_KEY}</kbd>
          </dd>
        </div>
      </dl>
    </section>
  );
}

/** The key's name as printed on keyboards. */
const ESCAPE_KEY = 'Esc';
