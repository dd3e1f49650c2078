/**
 * The pseudo-locale: English with its letters accented and each string in
 * ⟦ ⟧, a third longer (German runs that much longer). A text on screen
 * without the brackets did not come from the catalogue. Placeholders
 * ({{count}}) and tags (<0>…</0>) are left as they are so that i18next
 * still fills them in.
 */
const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((letter, index) => [letter, [...'àƀçđéƒĝĥíĵķĺɱñóþʠŕšŧúʋŵẋýžÀƁÇĐÉƑĜĤÍĴĶĹṀÑÓÞǪŔŠŦÚṼŴẊÝŽ'][index]!]),
);

const KEPT = /(\{\{[^}]*\}\}|<\/?\d+\/?>|\$t\([^)]*\))/;

export function pseudoString(text: string): string {
  const accented = text
    .split(KEPT)
    .map((part, index) => (index % 2 === 1 ? part : [...part].map((char) => ACCENTED[char] ?? char).join('')))
    .join('');
  const padding = '·'.repeat(Math.ceil(text.length / 3));
  return `⟦${accented}${padding}⟧`;
}

export function pseudoCatalogue<T>(catalogue: T): T {
  if (typeof catalogue === 'string') return pseudoString(catalogue) as T;
  if (catalogue && typeof catalogue === 'object') return Object.fromEntries(Object.entries(catalogue).map(([key, value]) => [key, pseudoCatalogue(value)])) as T;
  return catalogue;
}
