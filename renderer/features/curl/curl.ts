import type { HttpImpl } from '../../../shared/schemas/http-impl.js';
import { styledPairs, styledText, valueText as asText } from '../../../shared/tools/parameter-style.js';
import { parseTemplate, placeholderTarget, solePlaceholder } from '../../../shared/tools/templates.js';

/** A piece of a shell word: literal text, or a secret left as an environment variable. */
type Piece = { text: string } | { secret: string };

/**
 * "Copy as cURL": the request a tool would make for these arguments, as a
 * shell command. Secrets stay `$NAME` references to be set in the
 * environment, so their values never reach the clipboard.
 */
export function toCurl(impl: HttpImpl, args: Record<string, unknown>, argumentNames: ReadonlySet<string>): string {
  // The tester offers this for drafts too, whose fields may be half written (a cleared URL, a number typed in
  // the JSON editor): what is not text yet renders as nothing, never as a crash of the screen.
  const styleOf = (name: string) => (impl.styles && Object.hasOwn(impl.styles, name) ? impl.styles[name] : undefined);
  // `where` names the header a style writes (its name goes into matrix paths only, which give their own).
  const render = (template: unknown, encode: (value: string) => string = (v) => v, where = ''): Piece[] => {
    if (typeof template !== 'string') return [];
    const parsed = parseTemplate(template);
    if (!parsed.ok) return [{ text: template }];
    return parsed.parts.map((part) => {
      if (part.kind === 'text') return { text: part.text };
      if (placeholderTarget(part, argumentNames) === 'secret') return { secret: part.name };
      const rule = styleOf(part.name);
      const value = args[part.name] ?? '';
      return { text: rule ? styledText(rule.name ?? (where || part.name), value, rule, encode) : encode(asText(value)) };
    });
  };
  /** A query parameter or cookie whose template is one argument with a style, as the pairs the request carries. */
  const styledPieces = (name: string, template: unknown, encode: (value: string) => string): Piece[][] | undefined => {
    const parsed = typeof template === 'string' ? parseTemplate(template) : null;
    const sole = parsed?.ok ? solePlaceholder(parsed.parts) : null;
    const rule = sole && placeholderTarget(sole, argumentNames) === 'args' ? styleOf(sole.name) : undefined;
    if (!sole || !rule || args[sole.name] === undefined) return undefined;
    return styledPairs(name, args[sole.name], rule, encode).map((pair) => [{ text: pair }]);
  };

  const urlMatch = typeof impl.urlTemplate === 'string' ? /^(https?:\/\/[^/?#]*)(.*)$/s.exec(impl.urlTemplate) : null;
  const url: Piece[] = urlMatch ? [...render(urlMatch[1]!), ...render(urlMatch[2]!, encodeURIComponent)] : render(impl.urlTemplate);
  const query: Piece[][] = [];
  for (const [name, template] of Object.entries(impl.query ?? {})) {
    const styled = styledPieces(name, template, encodeURIComponent);
    if (styled) {
      query.push(...styled);
      continue;
    }
    const values = (Array.isArray(template) ? template : [template]).flatMap((item) => {
      if (typeof item !== 'string') return [[{ text: encodeURIComponent(asText(item)) }]];
      const parsed = parseTemplate(item);
      const sole = parsed.ok ? solePlaceholder(parsed.parts) : null;
      const value = sole && placeholderTarget(sole, argumentNames) === 'args' ? args[sole.name] : undefined;
      if (Array.isArray(value)) return value.map((entry) => [{ text: encodeURIComponent(asText(entry)) }]);
      return [render(item, encodeURIComponent)];
    });
    const isList = values.length !== 1 || Array.isArray(template);
    const encoding = impl.queryEncoding ?? 'repeat';
    if (isList && encoding === 'csv') query.push([{ text: `${encodeURIComponent(name)}=` }, ...values.flatMap((value, index) => (index ? [{ text: ',' }, ...value] : value))]);
    else for (const value of values) query.push([{ text: `${encodeURIComponent(name)}${isList && encoding === 'brackets' ? '[]' : ''}=` }, ...value]);
  }
  if (impl.auth?.kind === 'apiKey' && impl.auth.location === 'query') query.push([{ text: `${encodeURIComponent(impl.auth.name)}=` }, ...render(impl.auth.value, encodeURIComponent)]);
  const fullUrl = query.length
    ? [...url, { text: url.some((piece) => 'text' in piece && piece.text.includes('?')) ? '&' : '?' }, ...query.flatMap((pair, index) => (index ? [{ text: '&' }, ...pair] : pair))]
    : url;

  const words: string[] = ['curl', '-X', impl.method, quote(fullUrl)];
  for (const [name, template] of Object.entries(impl.headers ?? {})) words.push('-H', quote([{ text: `${name}: ` }, ...render(template, undefined, name)]));
  const cookies = Object.entries(impl.cookies ?? {}).map(([name, template]) => styledPieces(name, template, encodeURIComponent) ?? [[{ text: `${name}=` }, ...render(template, encodeURIComponent)]]);
  if (cookies.length) words.push('-b', quote(cookies.flat().flatMap((pair, index) => (index ? [{ text: '; ' }, ...pair] : pair))));
  if (impl.auth?.kind === 'bearer') words.push('-H', quote([{ text: 'Authorization: Bearer ' }, ...render(impl.auth.token)]));
  if (impl.auth?.kind === 'basic') words.push('-u', quote([...render(impl.auth.username), { text: ':' }, ...render(impl.auth.password)]));
  if (impl.auth?.kind === 'apiKey' && impl.auth.location === 'header') words.push('-H', quote([{ text: `${impl.auth.name}: ` }, ...render(impl.auth.value)]));
  if (impl.auth?.kind === 'oauth2') words.push('-H', quote([{ text: 'Authorization: Bearer ' }, { secret: 'OAUTH_ACCESS_TOKEN' }]));
  // A signature covers the moment it is made: the command says so rather than carry one that no longer holds.
  if (impl.auth?.kind === 'hmac') words.push('-H', quote([{ text: `${impl.auth.header}: (an HMAC-SHA256 signature Toolbelt makes when it sends the request)` }]));
  if (impl.multipart && impl.body) {
    for (const [name, value] of Object.entries(impl.body)) words.push('-F', quote([{ text: `${name}=` }, ...(typeof value === 'string' ? render(value) : [{ text: asText(value) }])]));
  } else if (impl.body !== undefined) {
    if (!Object.keys(impl.headers ?? {}).some((name) => name.toLowerCase() === 'content-type')) words.push('-H', quote([{ text: 'Content-Type: application/json' }]));
    words.push('--data-raw', quote(jsonPieces(impl.body, render, args, argumentNames)));
  } else if (impl.bodyTemplate !== undefined) {
    words.push('--data-raw', quote(render(impl.bodyTemplate)));
  }
  return words.join(' ');
}

function jsonPieces(body: unknown, render: (template: string) => Piece[], args: Record<string, unknown>, names: ReadonlySet<string>): Piece[] {
  // Render leaves, then serialise; a secret leaf becomes a "$NAME" string.
  const marker = (name: string) => `\u0000secret:${name}\u0000`;
  const fill = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const parsed = parseTemplate(value);
      const sole = parsed.ok ? solePlaceholder(parsed.parts) : null;
      if (sole && placeholderTarget(sole, names) === 'args') return args[sole.name] ?? null;
      return render(value)
        .map((piece) => ('secret' in piece ? marker(piece.secret) : piece.text))
        .join('');
    }
    if (Array.isArray(value)) return value.map(fill);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fill(item)]));
    return value;
  };
  const text = JSON.stringify(fill(body));
  return text.split(/(\\u0000secret:[A-Za-z0-9_]+\\u0000)/).map((chunk) => {
    const secret = /^\\u0000secret:([A-Za-z0-9_]+)\\u0000$/.exec(chunk);
    return secret ? { secret: secret[1]! } : { text: chunk };
  });
}

/** One double-quoted shell word: literal text escaped, secrets left to the shell. */
function quote(pieces: Piece[]): string {
  return `"${pieces.map((piece) => ('secret' in piece ? `\${${piece.secret}}` : piece.text.replace(/(["\\$`])/g, '\\$1'))).join('')}"`;
}
