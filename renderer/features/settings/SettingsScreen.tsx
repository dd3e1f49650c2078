import { Trans, useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
import { useListFocus } from '../../components/list-keys.js';
import { ScreenHeader } from '../../components/ScreenHeader.js';
import { useSettings } from '../../queries/tools.js';
import { SETTINGS_SECTIONS, useUiStore, type SettingsSection } from '../../state/ui.js';
import { AboutSection } from './AboutSection.js';
import { AppearanceSection } from './AppearanceSection.js';
import { ToolDiscoverySection } from './ToolDiscoverySection.js';
import { HooksSection } from './HooksSection.js';
import { ListSettingSection } from './ListSettingSection.js';
import { McpShareSection } from './McpShareSection.js';
import { ProvidersSection } from './ProvidersSection.js';
import { SecretsSection } from './SecretsSection.js';
import { ShortcutsSection } from './ShortcutsSection.js';

// Examples of what to type: a host name and a path read the same in every language.
const HOST_EXAMPLE = 'api.example.com';
const FOLDER_EXAMPLE = '/home/me/notes';

/** settings.json that cannot be used: the app runs on defaults and will not save over the file. */
function SettingsFileProblem() {
  const problem = useSettings().data?.problem;
  if (!problem) return null;
  return (
    <div className="callout callout--bad" role="alert">
      <Trans i18nKey="settings.fileProblem" values={{ file: problem.file, reason: problem.reason }} components={[<strong />, <code dir="ltr" />]} />
    </div>
  );
}

function HostsAndFolders() {
  const { t } = useTranslation();
  return (
    <>
      <ListSettingSection
        setting="allowedHosts"
        title={t('settings.allowedHosts.title')}
        description={<Trans i18nKey="settings.allowedHosts.description" components={[<code dir="ltr" />, <code dir="ltr" />, <code dir="ltr" />]} />}
        inputLabel={t('settings.allowedHosts.inputLabel')}
        placeholder={HOST_EXAMPLE}
        empty={t('settings.allowedHosts.empty')}
      />
      <ListSettingSection
        setting="readableFolders"
        title={t('settings.readableFolders.title')}
        description={t('settings.readableFolders.description')}
        inputLabel={t('settings.readableFolders.inputLabel')}
        placeholder={FOLDER_EXAMPLE}
        empty={t('settings.readableFolders.empty')}
      />
    </>
  );
}

/** What each section's page holds. */
const PAGES: Record<SettingsSection, () => ReactNode> = {
  providers: () => <ProvidersSection />,
  secrets: () => <SecretsSection />,
  access: () => <HostsAndFolders />,
  tools: () => <ToolDiscoverySection />,
  hooks: () => <HooksSection />,
  mcp: () => <McpShareSection />,
  appearance: () => (
    <>
      <AppearanceSection />
      <ShortcutsSection />
    </>
  ),
  about: () => <AboutSection />,
};

/** Settings' own navigation: one section at a time, arrow keys between them, as in the main sidebar. */
function SettingsNav({ current, onShow }: { current: SettingsSection; onShow: (section: SettingsSection) => void }) {
  const { t } = useTranslation();
  const { itemRef, onKeyDown } = useListFocus(SETTINGS_SECTIONS.length);
  return (
    <nav className="settings-nav" aria-label={t('settings.sections')}>
      <ul className="settings-nav__list">
        {SETTINGS_SECTIONS.map((section, index) => (
          <li key={section}>
            <button
              ref={itemRef(index)}
              type="button"
              className="settings-nav__item"
              aria-current={section === current ? 'page' : undefined}
              onClick={() => onShow(section)}
              onKeyDown={(event) => onKeyDown(event, index)}
            >
              {t(`settings.nav.${section}`)}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function SettingsScreen() {
  const { t } = useTranslation();
  const section = useUiStore((state) => state.settingsSection);
  const show = useUiStore((state) => state.showSettingsSection);
  const Page = PAGES[section] ?? PAGES.providers;
  return (
    <section className="screen" aria-labelledby="settings-title">
      <ScreenHeader id="settings-title" title={t('screens.settings')} subtitle={t('settings.subtitle')} />
      <div className="settings-layout">
        <SettingsNav current={section} onShow={show} />
        <div className="screen__body stack settings-layout__page">
          <SettingsFileProblem />
          <Page />
        </div>
      </div>
    </section>
  );
}
