import { describe, expect, it } from 'vitest';
import ar from './locales/ar.json';
import de from './locales/de.json';
import en from './locales/en.json';
import zhHans from './locales/zh-Hans.json';
import { directionOf, systemLanguage } from './languages.js';
import { pseudoString } from './pseudo.js';

type Tree = { [key: string]: string | Tree };
const PLURAL = /_(zero|one|two|few|many|other)$/;

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') out.set(prefix + key, value);
    else for (const [inner, text] of flatten(value, `${prefix}${key}.`)) out.set(inner, text);
  }
  return out;
}

/** What a translation must keep: its {{placeholders}} and <n> tags. */
const kept = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}|<(\d+)\/?>/g)].map((match) => match[1] ?? `<${match[2]}>`).filter((name) => name !== 'count').sort();

const english = flatten(en);
const baseKeys = (catalogue: Map<string, string>) => new Set([...catalogue.keys()].map((key) => key.replace(PLURAL, '')));

describe.each([
  ['de', de],
  ['zh-Hans', zhHans],
  ['ar', ar],
] as const)('the %s catalogue', (language, catalogue) => {
  const translated = flatten(catalogue);

  it('has every text the English one has, and nothing else', () => {
    expect([...baseKeys(translated)].sort()).toEqual([...baseKeys(english)].sort());
  });

  it('keeps each text’s placeholders and tags', () => {
    for (const [key, text] of translated) {
      const source = english.get(key) ?? english.get(key.replace(PLURAL, '_other'));
      expect(kept(text), `${language} ${key}`).toEqual(kept(source!));
    }
  });

  it('has each plural form the language uses', () => {
    const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
    for (const key of new Set([...english.keys()].filter((entry) => PLURAL.test(entry)).map((entry) => entry.replace(PLURAL, '')))) {
      for (const form of forms) expect(translated.has(`${key}_${form}`), `${language} ${key}_${form}`).toBe(true);
    }
  });
});

describe('choosing the language', () => {
  it('follows the first system language Toolbelt speaks, Simplified Chinese by script, else English', () => {
    expect(systemLanguage(['fr-FR', 'de-AT', 'en'])).toBe('de');
    expect(systemLanguage(['zh-CN'])).toBe('zh-Hans');
    expect(systemLanguage(['zh-TW', 'ar-EG'])).toBe('ar');
    expect(systemLanguage(['not a tag', 'ja'])).toBe('en');
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('de')).toBe('ltr');
  });

  it('marks pseudo-locale texts and keeps what i18next fills in', () => {
    expect(pseudoString('Remove {{item}} <0>now</0>')).toMatch(/^⟦Ŕéɱóʋé \{\{item\}\} <0>ñóŵ<\/0>·+⟧$/);
  });
});
