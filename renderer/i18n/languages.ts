/**
 * The languages the window speaks. `pseudo` is for tests only: every string
 * from the catalogue comes out marked, so a string that did not come from it
 * stands out (see pseudo.ts).
 */
export const LANGUAGES = ['en', 'de', 'zh-Hans', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];
export type LanguagePreference = 'system' | Language | 'pseudo';

/** Each language by its own name, as language pickers show them. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', de: 'Deutsch', 'zh-Hans': '简体中文', ar: 'العربية' };

const RIGHT_TO_LEFT = new Set<string>(['ar']);

/** The first of the system's languages Toolbelt speaks (zh-CN, zh-SG and zh-Hans are Simplified Chinese; zh-TW is not), else English. */
export function systemLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const locale = safeLocale(tag);
    if (!locale) continue;
    if (locale.language === 'zh') {
      const script = locale.maximize().script;
      if (script === 'Hans') return 'zh-Hans';
      continue;
    }
    const match = LANGUAGES.find((language) => language === locale.language);
    if (match) return match;
  }
  return 'en';
}

function safeLocale(tag: string): Intl.Locale | null {
  try {
    return new Intl.Locale(tag);
  } catch {
    return null;
  }
}

export function resolveLanguage(preference: LanguagePreference, preferred: readonly string[]): Language | 'pseudo' {
  return preference === 'system' ? systemLanguage(preferred) : preference;
}

export function directionOf(language: string): 'rtl' | 'ltr' {
  return RIGHT_TO_LEFT.has(language) ? 'rtl' : 'ltr';
}
