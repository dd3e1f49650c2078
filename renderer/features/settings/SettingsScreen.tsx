import { Trans, useTranslation } from 'react-i18next';
import { ScreenHeader } from '../../components/ScreenHeader.js';
import { useSettings } from '../../queries/tools.js';
import { AboutSection } from './AboutSection.js';
import { AppearanceSection } from './AppearanceSection.js';
import { ToolDiscoverySection } from './ToolDiscoverySection.js';
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

export function SettingsScreen() {
  const { t } = useTranslation();
  return (
    <section className="screen" aria-labelledby="settings-title">
      <ScreenHeader id="settings-title" title={t('screens.settings')} subtitle={t('settings.subtitle')} />
      <div className="screen__body stack">
        <SettingsFileProblem />
        <ProvidersSection />
        <SecretsSection />
        <ListSettingSection
          setting="allowedHosts"
          title={t('settings.allowedHosts.title')}
          description={t('settings.allowedHosts.description')}
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
        <ToolDiscoverySection />
        <McpShareSection />
        <AppearanceSection />
        <ShortcutsSection />
        <AboutSection />
      </div>
    </section>
  );
}
