import { useUiStore, type ThemePreference } from '../../state/ui.js';

const THEMES: { value: ThemePreference; label: string; hint: string }[] = [
  { value: 'system', label: 'System', hint: 'Follow the operating system' },
  { value: 'light', label: 'Light', hint: 'Always light' },
  { value: 'dark', label: 'Dark', hint: 'Always dark' },
];

export function AppearanceSection() {
  const theme = useUiStore((state) => state.theme);
  const setTheme = useUiStore((state) => state.setTheme);
  return (
    <section className="card" aria-labelledby="appearance-title">
      <h2 id="appearance-title" className="card__title">
        Appearance
      </h2>
      <fieldset className="segmented">
        <legend className="field-label">Theme</legend>
        {THEMES.map((option) => (
          <label key={option.value} className="segmented__option" title={option.hint}>
            <input
              type="radio"
              name="theme"
              value={option.value}
              checked={theme === option.value}
              onChange={() => setTheme(option.value)}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </fieldset>
    </section>
  );
}
