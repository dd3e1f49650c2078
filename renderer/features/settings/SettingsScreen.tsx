import { ScreenHeader } from '../../components/ScreenHeader.js';
import { AboutSection } from './AboutSection.js';
import { AppearanceSection } from './AppearanceSection.js';
import { ShortcutsSection } from './ShortcutsSection.js';

export function SettingsScreen() {
  return (
    <section className="screen" aria-labelledby="settings-title">
      <ScreenHeader id="settings-title" title="Settings" subtitle="How Toolbelt looks and where it keeps your data." />
      <div className="screen__body stack">
        <AboutSection />
        <AppearanceSection />
        <ShortcutsSection />
      </div>
    </section>
  );
}
