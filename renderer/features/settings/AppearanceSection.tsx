import { useTranslation } from 'react-i18next';
import { LANGUAGE_NAMES, LANGUAGES, systemLanguage, type LanguagePreference } from '../../i18n/languages.js';
import { useUiStore, type ThemePreference } from '../../state/ui.js';

const THEMES = [
  { value: 'system', label: 'settings.appearance.themeSystem', hint: 'settings.appearance.themeSystemHint' },
  { value: 'light', label: 'settings.appearance.themeLight', hint: 'settings.appearance.themeLightHint' },
  { value: 'dark', label: 'settings.appearance.themeDark', hint: 'settings.appearance.themeDarkHint' },
] as const satisfies readonly { value: ThemePreference; label: string; hint: string }[];

export function AppearanceSection() {
  const { t } = useTranslation();
  const theme = useUiStore((state) => state.theme);
  const setTheme = useUiStore((state) => state.setTheme);
  const language = useUiStore((state) => state.language);
  const setLanguage = useUiStore((state) => state.setLanguage);
  return (
    <section className="card" aria-labelledby="appearance-title">
      <h2 id="appearance-title" className="card__title">
        {t('settings.appearance.title')}
      </h2>
      <fieldset className="segmented">
        <legend className="field-label">{t('settings.appearance.theme')}</legend>
        {THEMES.map((option) => (
          <label key={option.value} className="segmented__option" title={t(option.hint)}>
            <input type="radio" name="theme" value={option.value} checked={theme === option.value} onChange={() => setTheme(option.value)} />
            <span>{t(option.label)}</span>
          </label>
        ))}
      </fieldset>
      <div className="field language-field">
        <label className="field-label" htmlFor="language">
          {t('settings.appearance.language')}
        </label>
        <select id="language" className="input" value={language === 'pseudo' ? 'system' : language} onChange={(event) => setLanguage(event.target.value as LanguagePreference)} aria-describedby="language-note">
          <option value="system">{t('settings.appearance.languageSystem', { language: LANGUAGE_NAMES[systemLanguage(navigator.languages)] })}</option>
          {LANGUAGES.map((code) => (
            // Each language in its own words and direction, so that a person who cannot read the current one finds theirs.
            <option key={code} value={code} lang={code} dir="auto">
              {LANGUAGE_NAMES[code]}
            </option>
          ))}
        </select>
        <p id="language-note" className="muted">
          {t('settings.appearance.languageNote')}
        </p>
      </div>
    </section>
  );
}
