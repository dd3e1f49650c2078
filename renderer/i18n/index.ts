import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import ar from './locales/ar.json';
import de from './locales/de.json';
import en from './locales/en.json';
import zhHans from './locales/zh-Hans.json';
import { directionOf, type Language } from './languages.js';
import { pseudoCatalogue } from './pseudo.js';

export type Catalogue = typeof en;

const resources = {
  en: { translation: en },
  de: { translation: de },
  'zh-Hans': { translation: zhHans },
  ar: { translation: ar },
  pseudo: { translation: pseudoCatalogue(en) },
} satisfies Record<Language | 'pseudo', { translation: unknown }>;

/**
 * One i18next for the window, set up before the first render: every string a
 * person reads comes from its catalogue. Plurals follow each language's
 * rules (Intl.PluralRules: Arabic has six forms); a key a catalogue lacks
 * falls back to English rather than showing the key.
 */
export const i18n = i18next.createInstance();
i18n
  .use(initReactI18next)
  .init({
    resources,
    lng: 'en',
    fallbackLng: 'en',
    // React escapes what it renders; escaping here too would show &amp; to people.
    interpolation: { escapeValue: false },
    initAsync: false,
  })
  // The catalogues are bundled, so this cannot wait on anything; were it to fail, the console says so (e2e fails on it).
  .catch((error: unknown) => console.error('Toolbelt could not load its texts', error));

/** Switches the window's language, and its direction and lang attribute with it (screen readers and hyphenation read lang). */
export function applyLanguage(language: Language | 'pseudo'): void {
  if (i18n.language !== language) i18n.changeLanguage(language).catch((error: unknown) => console.error('Toolbelt could not switch its language', error));
  const root = document.documentElement;
  root.lang = language === 'pseudo' ? 'en-XA' : language;
  root.dir = directionOf(language);
}
