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

/** settings.json that cannot be used: the app runs on defaults and will not save over the file. */
function SettingsFileProblem() {
  const problem = useSettings().data?.problem;
  if (!problem) return null;
  return (
    <div className="callout callout--bad" role="alert">
      <strong>Settings are the defaults for now:</strong> <code>{problem.file}</code> cannot be used — {problem.reason}. Toolbelt leaves the file as it is;
      fix it in an editor or move it away, and changes here can be saved again.
    </div>
  );
}

export function SettingsScreen() {
  return (
    <section className="screen" aria-labelledby="settings-title">
      <ScreenHeader id="settings-title" title="Settings" subtitle="Providers, secrets, what tools may reach, sharing tools with other apps, how Toolbelt looks, and where it keeps your data." />
      <div className="screen__body stack">
        <SettingsFileProblem />
        <ProvidersSection />
        <SecretsSection />
        <ListSettingSection
          setting="allowedHosts"
          title="Allowed hosts"
          description="HTTP tools may only call these hosts (every redirect is checked too). host, host:port, or *.example.com for subdomains."
          inputLabel="Host to allow"
          placeholder="api.example.com"
          empty="No host is allowed: every HTTP tool call will be refused."
        />
        <ListSettingSection
          setting="readableFolders"
          title="Readable folders"
          description="The Core bundle's Read a text file tool may read files inside these folders, and nowhere else."
          inputLabel="Folder to allow"
          placeholder="/home/me/notes"
          empty="No folder is readable."
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
