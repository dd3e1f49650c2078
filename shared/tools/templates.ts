import { remembered } from './remembered.js';

/**
 * Template strings of HTTP tools: `${name}` (an argument if argSchema has
 * it, else a secret), `${args.name}` and `${secret.NAME}`. Parsed in one
 * place so the store, the executor and the editor agree on every rule.
 */
export type TemplatePart =
  | { kind: 'text'; text: string }
  | { kind: 'placeholder'; source: 'auto' | 'args' | 'secret'; name: string; raw: string };

export interface TemplateProblem {
  offset: number;
  message: string;
}

export type ParsedTemplate = { ok: true; parts: TemplatePart[] } | { ok: false; problem: TemplateProblem };

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const SECRET_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_]{0,127}$';

/** Parses a template, remembering the answer: the same templates are rendered on every call of a tool. */
export const parseTemplate = remembered((template: string) => parseTemplateText(template), 5_000);

/** A template cut at its placeholders: literal text, and each `${...}` with what is inside it (trimmed). */
export type ScannedPart = { kind: 'text'; text: string } | { kind: 'raw'; inner: string; raw: string; offset: number };

/**
 * Cuts a template at its `${...}` placeholders, leaving what they mean to
 * the caller: HTTP tools read `args.`/`secret.` names, recipes read
 * `inputs.`/`steps.` references. A `${` without its `}` is the one problem.
 */
export function scanTemplate(template: string): { ok: true; parts: ScannedPart[] } | { ok: false; problem: TemplateProblem } {
  const parts: ScannedPart[] = [];
  let text = '';
  let index = 0;
  while (index < template.length) {
    const start = template.indexOf('${', index);
    if (start === -1) {
      text += template.slice(index);
      break;
    }
    text += template.slice(index, start);
    const end = template.indexOf('}', start + 2);
    if (end === -1) return { ok: false, problem: { offset: start, message: 'has "${" without a closing "}"' } };
    if (text) parts.push({ kind: 'text', text });
    text = '';
    parts.push({ kind: 'raw', inner: template.slice(start + 2, end).trim(), raw: template.slice(start, end + 1), offset: start });
    index = end + 1;
  }
  if (text) parts.push({ kind: 'text', text });
  return { ok: true, parts };
}

function parseTemplateText(template: string): ParsedTemplate {
  const scanned = scanTemplate(template);
  if (!scanned.ok) return scanned;
  const parts: TemplatePart[] = [];
  for (const part of scanned.parts) {
    if (part.kind === 'text') {
      parts.push(part);
      continue;
    }
    const { inner, raw, offset } = part;
    const dot = inner.indexOf('.');
    const prefix = dot === -1 ? '' : inner.slice(0, dot);
    const name = dot === -1 ? inner : inner.slice(dot + 1);
    if (dot !== -1 && prefix !== 'args' && prefix !== 'secret') {
      return { ok: false, problem: { offset, message: `${raw}: use \${name}, \${args.name} or \${secret.NAME}` } };
    }
    if (!NAME.test(name)) {
      return { ok: false, problem: { offset, message: `${raw}: a name is letters, digits and "_", not starting with a digit` } };
    }
    parts.push({ kind: 'placeholder', source: prefix === '' ? 'auto' : (prefix as 'args' | 'secret'), name, raw });
  }
  return { ok: true, parts };
}

/** Resolves `auto` placeholders: an argument if argSchema declares it, else a secret. */
export function placeholderTarget(
  part: Extract<TemplatePart, { kind: 'placeholder' }>,
  argumentNames: ReadonlySet<string>,
): 'args' | 'secret' {
  if (part.source !== 'auto') return part.source;
  return argumentNames.has(part.name) ? 'args' : 'secret';
}

/** True when the whole template is one placeholder, so the value keeps its JSON type. */
export function solePlaceholder(parts: TemplatePart[]): Extract<TemplatePart, { kind: 'placeholder' }> | null {
  const [only] = parts;
  return parts.length === 1 && only?.kind === 'placeholder' ? only : null;
}
