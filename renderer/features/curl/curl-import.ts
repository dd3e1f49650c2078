/**
 * A pasted cURL command as the request it makes: words split the way bash
 * (or Windows cmd, for commands copied from a browser on Windows) splits
 * them, then curl's options read the way curl reads them. `$NAME` and
 * `${NAME}` (environment variables, where people keep keys) stay
 * references, never values.
 */

/** An environment reference inside a word: it becomes a secret of that name. */
const REF_START = '\uE000';
const REF_END = '\uE001';

export class CurlImportError extends Error {}

export interface ParsedCurl {
  method: string;
  /** Scheme, host and path, without the query. */
  url: string;
  query: [string, string][];
  headers: [string, string][];
  body?: { kind: 'json'; value: unknown } | { kind: 'text'; text: string } | { kind: 'form'; fields: [string, string][] } | { kind: 'multipart'; fields: [string, string][] };
  user?: string;
  timeoutMs?: number;
  retries?: number;
  /** Options and parts that were left out, in sentences. */
  warnings: string[];
}

// ── words ─────────────────────────────────────────────────────────────

function isWindowsCommand(command: string): boolean {
  return /\^\r?\n/.test(command) || /\^"/.test(command) || /^\s*curl\.exe\b/i.test(command);
}

/** Splits a command into words as bash does: quotes, escapes, line continuations, $'…', and $VAR kept as references. */
export function shellWords(command: string): string[] {
  if (isWindowsCommand(command)) return cmdWords(command);
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let index = 0;
  const reference = (from: number): { text: string; next: number } | null => {
    const braced = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}/.exec(command.slice(from));
    const bare = braced ?? /^\$([A-Za-z_][A-Za-z0-9_]*)/.exec(command.slice(from));
    return bare ? { text: `${REF_START}${bare[1]}${REF_END}`, next: from + bare[0].length } : null;
  };
  while (index < command.length) {
    const char = command[index]!;
    if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      index++;
      continue;
    }
    // A backslash before a line break continues the line: no word of its own.
    if (char === '\\' && (command[index + 1] === '\n' || (command[index + 1] === '\r' && command[index + 2] === '\n'))) {
      index += command[index + 1] === '\n' ? 2 : 3;
      continue;
    }
    inWord = true;
    const outerReference = char === '$' ? reference(index) : null;
    if (char === '\\') {
      word += command[index + 1] ?? '';
      index += 2;
    } else if (char === "'") {
      const end = command.indexOf("'", index + 1);
      if (end === -1) throw new CurlImportError('A single quote is not closed.');
      word += command.slice(index + 1, end);
      index = end + 1;
    } else if (char === '$' && command[index + 1] === "'") {
      const { text, next } = ansiC(command, index + 2);
      word += text;
      index = next;
    } else if (char === '"') {
      index++;
      for (;;) {
        if (index >= command.length) throw new CurlImportError('A double quote is not closed.');
        const inner = command[index]!;
        if (inner === '"') break;
        const found = inner === '$' ? reference(index) : null;
        if (inner === '\\' && '"\\$`\n'.includes(command[index + 1] ?? '')) {
          if (command[index + 1] !== '\n') word += command[index + 1];
          index += 2;
        } else if (found) {
          word += found.text;
          index = found.next;
        } else {
          word += inner;
          index++;
        }
      }
      index++;
    } else if (outerReference) {
      word += outerReference.text;
      index = outerReference.next;
    } else {
      word += char;
      index++;
    }
  }
  if (inWord) words.push(word);
  return words;
}

function ansiC(command: string, from: number): { text: string; next: number } {
  let text = '';
  let index = from;
  const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', a: '\x07', b: '\b', e: '\x1b', f: '\f', v: '\v' };
  while (index < command.length && command[index] !== "'") {
    if (command[index] === '\\') {
      const code = command[index + 1] ?? '';
      const hex = /^x([0-9A-Fa-f]{1,2})/.exec(command.slice(index + 1));
      if (hex) {
        text += String.fromCharCode(parseInt(hex[1]!, 16));
        index += 1 + hex[0].length;
        continue;
      }
      text += escapes[code] ?? code;
      index += 2;
    } else text += command[index++];
  }
  if (index >= command.length) throw new CurlImportError("A $'…' quote is not closed.");
  return { text, next: index + 1 };
}

/**
 * Windows, in two steps as there: cmd takes its carets (^ escapes the next
 * character; ^ and a line break continue the line), then curl.exe's C
 * runtime splits the words ("…" quotes; \" and "" inside are a quote).
 * Browsers' "Copy as cURL (cmd)" writes exactly this.
 */
function cmdWords(command: string): string[] {
  const afterCmd = command.replace(/\^\r?\n/g, '').replace(/\^(.)/gs, '$1');
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quoted = false;
  for (let index = 0; index < afterCmd.length; index++) {
    const char = afterCmd[index]!;
    if (char === '\\' && afterCmd[index + 1] === '"') {
      word += '"';
      inWord = true;
      index++;
    } else if (char === '"') {
      inWord = true;
      if (quoted && afterCmd[index + 1] === '"') {
        word += '"';
        index++;
      } else quoted = !quoted;
    } else if (!quoted && /\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quoted) throw new CurlImportError('A double quote is not closed.');
  if (inWord) words.push(word);
  return words;
}

// ── curl's options ────────────────────────────────────────────────────

const FLAGS = new Set(['-s', '--silent', '-S', '--show-error', '-L', '--location', '-k', '--insecure', '-i', '--include', '-v', '--verbose', '--compressed', '-f', '--fail', '-g', '--globoff', '-#', '--progress-bar', '-N', '--no-buffer', '--http1.1', '--http2', '-l', '--list-only']);
const IGNORED_WITH_VALUE = new Set(['-o', '--output', '-w', '--write-out', '--connect-timeout', '--cacert', '--cert', '--key', '-x', '--proxy', '--resolve', '-c', '--cookie-jar']);
const WITH_VALUE = new Set(['-X', '--request', '-H', '--header', '-d', '--data', '--data-ascii', '--data-binary', '--data-raw', '--data-urlencode', '--json', '-F', '--form', '-u', '--user', '-A', '--user-agent', '-e', '--referer', '-b', '--cookie', '--url', '-m', '--max-time', '--retry', '-T', '--upload-file', '-K', '--config', ...IGNORED_WITH_VALUE]);
const SHORT_WITH_VALUE = new Set([...WITH_VALUE].filter((option) => /^-[^-]$/.test(option)));

/** `-sSL` → `-s -S -L`; `-XPOST` → `-X POST`; `--opt=value` → `--opt value`. */
function expandOptions(words: string[]): string[] {
  const out: string[] = [];
  for (const word of words) {
    const long = /^(--[a-z0-9.-]+)=(.*)$/s.exec(word);
    if (long && WITH_VALUE.has(long[1]!)) {
      out.push(long[1]!, long[2]!);
      continue;
    }
    if (/^-[A-Za-z#]{2,}/.test(word) && !word.startsWith('--')) {
      for (let index = 1; index < word.length; index++) {
        const option = `-${word[index]}`;
        if (SHORT_WITH_VALUE.has(option)) {
          out.push(option);
          if (index + 1 < word.length) out.push(word.slice(index + 1));
          break;
        }
        out.push(option);
      }
      continue;
    }
    out.push(word);
  }
  return out;
}

/** Reads the words of a curl command into the request it makes. */
export function parseCurl(command: string): ParsedCurl {
  const words = expandOptions(shellWords(command.trim()));
  if (!/^curl(?:\.exe)?$/i.test(words[0] ?? '')) throw new CurlImportError('Paste a command that starts with curl.');
  const warnings: string[] = [];
  let method: string | undefined;
  let url: string | undefined;
  const headers: [string, string][] = [];
  const data: string[] = [];
  const form: [string, string][] = [];
  let json = false;
  let get = false;
  let user: string | undefined;
  let timeoutMs: number | undefined;
  let retries: number | undefined;
  for (let index = 1; index < words.length; index++) {
    const word = words[index]!;
    const value = () => {
      const next = words[++index];
      if (next === undefined) throw new CurlImportError(`${word} needs a value after it.`);
      return next;
    };
    if (word === '-T' || word === '--upload-file') throw new CurlImportError(`${word} uploads a file, which a tool cannot carry: give the body with -d or --json instead.`);
    if (word === '-K' || word === '--config') throw new CurlImportError(`${word} reads more options from a file, which cannot be carried into a tool: paste the options themselves.`);
    if (!word.startsWith('-') || word === '-') {
      if (url) warnings.push(`Only the first URL is used; ${word} was left out.`);
      else url = word;
    } else if (FLAGS.has(word)) continue;
    else if (IGNORED_WITH_VALUE.has(word)) {
      value();
    } else if (word === '-X' || word === '--request') method = value().toUpperCase();
    else if (word === '-H' || word === '--header') {
      const header = value();
      const colon = header.indexOf(':');
      if (colon > 0) headers.push([header.slice(0, colon).trim(), header.slice(colon + 1).trim()]);
      else if (header.endsWith(';')) headers.push([header.slice(0, -1).trim(), '']);
      else warnings.push(`The header "${header}" has no ":", so it was left out.`);
    } else if (['-d', '--data', '--data-ascii', '--data-binary', '--data-raw'].includes(word)) {
      const text = value();
      if (text.startsWith('@') && word !== '--data-raw') warnings.push(`Data from the file ${text.slice(1)} cannot be carried into a tool; put its content in the body.`);
      else data.push(word === '--data-raw' || word === '--data-binary' ? text : text.replace(/[\r\n]/g, ''));
    } else if (word === '--data-urlencode') {
      const text = value();
      const equals = text.indexOf('=');
      data.push(equals === -1 ? encodeURIComponent(text) : equals === 0 ? encodeURIComponent(text.slice(1)) : `${text.slice(0, equals)}=${encodeURIComponent(text.slice(equals + 1))}`);
    } else if (word === '--json') {
      data.push(value());
      json = true;
    } else if (word === '-F' || word === '--form') {
      const field = value();
      const equals = field.indexOf('=');
      if (equals < 1) warnings.push(`The form field "${field}" has no name, so it was left out.`);
      else if (field[equals + 1] === '@' || field[equals + 1] === '<') {
        warnings.push(`The file for form field ${field.slice(0, equals)} cannot be carried into a tool; make the field an argument to fill instead.`);
        form.push([field.slice(0, equals), '']);
      } else form.push([field.slice(0, equals), field.slice(equals + 1).replace(/;type=[^;]*$/, '')]);
    } else if (word === '-u' || word === '--user') user = value();
    else if (word === '-A' || word === '--user-agent') headers.push(['User-Agent', value()]);
    else if (word === '-e' || word === '--referer') headers.push(['Referer', value()]);
    else if (word === '-b' || word === '--cookie') {
      const cookie = value();
      if (cookie.includes('=')) headers.push(['Cookie', cookie]);
      else warnings.push(`Cookies from the file ${cookie} cannot be carried into a tool.`);
    } else if (word === '--url') url = value();
    else if (word === '-G' || word === '--get') get = true;
    else if (word === '-m' || word === '--max-time') timeoutMs = Math.round(Number(value()) * 1000) || undefined;
    else if (word === '--retry') retries = Number(value()) || undefined;
    else warnings.push(`The option ${word} is not part of a tool, so it was left out.`);
  }
  if (!url) throw new CurlImportError('The command has no URL.');
  // curl takes a URL without a scheme as http; any other scheme (file:, ftp:) is no HTTP tool. `host:8080/x` has a port, not one.
  const scheme = /^([a-z][a-z0-9+.-]*):(?!\d)/i.exec(url)?.[1];
  if (scheme && !/^https?$/i.test(scheme)) throw new CurlImportError(`${scheme}: URLs cannot be HTTP tools; a tool sends http:// or https:// requests.`);
  if (!scheme) url = `http://${url}`;
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(url.replaceAll(REF_START, '').replaceAll(REF_END, ''));
  } catch {
    throw new CurlImportError(`${url} is not a URL.`);
  }
  const queryStart = url.indexOf('?');
  const base = (queryStart === -1 ? url : url.slice(0, queryStart)).replace(/#.*$/, '');
  const query: [string, string][] = queryStart === -1 ? [] : pairs(url.slice(queryStart + 1).replace(/#.*$/, ''));
  if (get && data.length) {
    query.push(...pairs(data.join('&')));
    data.length = 0;
  }
  if (json) {
    if (!headers.some(([name]) => /^content-type$/i.test(name))) headers.push(['Content-Type', 'application/json']);
    if (!headers.some(([name]) => /^accept$/i.test(name))) headers.push(['Accept', 'application/json']);
  }
  const finalMethod = method ?? (data.length || form.length ? 'POST' : 'GET');
  if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(finalMethod)) throw new CurlImportError(`${finalMethod} requests cannot be HTTP tools: use GET, POST, PUT, PATCH or DELETE.`);
  if (parsedUrl.protocol !== 'http:' && parsedUrl.protocol !== 'https:') throw new CurlImportError(`${parsedUrl.protocol} URLs cannot be HTTP tools.`);
  const parsed: ParsedCurl = { method: finalMethod, url: base, query, headers, warnings };
  if (form.length) parsed.body = { kind: 'multipart', fields: form };
  else if (data.length) parsed.body = bodyOf(data.join('&'), headers);
  if (user !== undefined) parsed.user = user;
  if (timeoutMs) parsed.timeoutMs = timeoutMs;
  if (retries) parsed.retries = retries;
  return parsed;
}

function pairs(text: string): [string, string][] {
  return text
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const equals = pair.indexOf('=');
      const decode = (part: string) => {
        try {
          return decodeURIComponent(part.replace(/\+/g, ' '));
        } catch {
          return part;
        }
      };
      return equals === -1 ? [decode(pair), ''] : [decode(pair.slice(0, equals)), decode(pair.slice(equals + 1))];
    });
}

function bodyOf(text: string, headers: [string, string][]): ParsedCurl['body'] {
  const contentType = headers.find(([name]) => /^content-type$/i.test(name))?.[1] ?? '';
  if (/json/i.test(contentType) || (!contentType && /^\s*[[{]/.test(text))) {
    try {
      return { kind: 'json', value: JSON.parse(text.replaceAll(REF_START, '${secret.').replaceAll(REF_END, '}')) as unknown };
    } catch {
      return { kind: 'text', text };
    }
  }
  if (!contentType || /x-www-form-urlencoded/i.test(contentType)) return { kind: 'form', fields: pairs(text) };
  return { kind: 'text', text };
}

/** Environment references in a word (`$TOKEN`) as template secrets (`${secret.TOKEN}`), and the names used. */
export function withSecretRefs(text: string): { text: string; names: string[] } {
  const names: string[] = [];
  const replaced = text.replace(new RegExp(`${REF_START}([A-Za-z_][A-Za-z0-9_]*)${REF_END}`, 'g'), (_whole, name: string) => {
    names.push(name);
    return `\${secret.${name}}`;
  });
  return { text: replaced, names };
}
