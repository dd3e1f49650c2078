import { parseTemplate, placeholderTarget, solePlaceholder, type TemplatePart } from '../../../shared/tools/templates.js';
import type { ParameterStyleRule } from '../../../shared/schemas/http-impl.js';
import { valueText as asText } from '../../../shared/tools/parameter-style.js';
import { InvokeFailure } from '../invoke-error.js';

/** What templates draw on: the call's arguments and the secrets they name. */
export interface RenderScope {
  args: Record<string, unknown>;
  argumentNames: ReadonlySet<string>;
  /** Secret values already resolved for this call. */
  secrets: ReadonlyMap<string, string>;
  /** Filled in while rendering: every secret a value came from. */
  usedSecrets: Set<string>;
  /** When the request is built (ms since the epoch): what an HMAC signature's timestamp says. */
  now?: number;
  /** The access token of an OAuth 2 tool, bought before the request is built. */
  oauthToken?: string;
}

export type Placeholder = Extract<TemplatePart, { kind: 'placeholder' }>;

/** The secret names a template refers to, for resolving them before rendering. */
export function secretNamesIn(template: string, argumentNames: ReadonlySet<string>): string[] {
  const parsed = parseTemplate(template);
  if (!parsed.ok) return [];
  return parsed.parts.flatMap((part) =>
    part.kind === 'placeholder' && placeholderTarget(part, argumentNames) === 'secret' ? [part.name] : [],
  );
}

function lookup(part: Placeholder, scope: RenderScope, where: string): unknown {
  if (placeholderTarget(part, scope.argumentNames) === 'args') {
    // Own keys only: an argument named "constructor" that was not given must not find Object.prototype's.
    const value = Object.hasOwn(scope.args, part.name) ? scope.args[part.name] : undefined;
    if (value === undefined || value === null) {
      throw new InvokeFailure('missing_input', `${part.raw} in ${where} has no value: the argument "${part.name}" was not given.`);
    }
    return value;
  }
  const secret = scope.secrets.get(part.name);
  if (secret === undefined) {
    throw new InvokeFailure('missing_secret', `${part.raw} in ${where} needs the secret ${part.name}, which is not set. Add it in Settings → Secrets.`);
  }
  scope.usedSecrets.add(part.name);
  return secret;
}

export { asText };

function parse(template: string, where: string): TemplatePart[] {
  const parsed = parseTemplate(template);
  if (!parsed.ok) throw new InvokeFailure('invalid_request', `The template in ${where} ${parsed.problem.message}.`);
  return parsed.parts;
}

/** Renders to text, encoding each inserted value with `encode` (the literal text is left alone). */
export function renderText(template: string, scope: RenderScope, where: string, encode: (value: string) => string = (v) => v): string {
  return renderTextWith(template, scope, where, (value) => encode(asText(value)));
}

/** Renders to text, each inserted value written by `write`, which is told the placeholder it fills. */
export function renderTextWith(template: string, scope: RenderScope, where: string, write: (value: unknown, placeholder: Placeholder) => string): string {
  return parse(template, where)
    .map((part) => (part.kind === 'text' ? part.text : write(lookup(part, scope, where), part)))
    .join('');
}

/** The style rule of the argument a placeholder names, when the tool gives one. */
export function styleOf(styles: Readonly<Record<string, ParameterStyleRule>> | undefined, placeholder: Placeholder, scope: RenderScope): ParameterStyleRule | undefined {
  if (!styles || placeholderTarget(placeholder, scope.argumentNames) !== 'args') return undefined;
  return Object.hasOwn(styles, placeholder.name) ? styles[placeholder.name] : undefined;
}

/**
 * Renders a query value or a JSON body leaf. A template that is exactly one
 * placeholder keeps the argument's type (a list stays a list, a number a
 * number); anything else becomes text.
 */
export function renderValue(template: string, scope: RenderScope, where: string): unknown {
  const parts = parse(template, where);
  const sole = solePlaceholder(parts);
  if (sole) return lookup(sole, scope, where);
  return parts.map((part) => (part.kind === 'text' ? part.text : asText(lookup(part, scope, where)))).join('');
}

/**
 * Whether this template is exactly one argument that the call did not give.
 * Such a query parameter, header or body field is left out: the argSchema
 * already refused a call without a required argument, so this one is optional.
 */
export function isAbsentArgument(template: unknown, scope: RenderScope): boolean {
  const sole = typeof template === 'string' ? soleArgument(template, scope) : null;
  return !!sole && (!Object.hasOwn(scope.args, sole.name) || scope.args[sole.name] === undefined);
}

/** The argument this template is exactly, if it is one placeholder of an argument. */
export function soleArgument(template: string, scope: RenderScope): Placeholder | null {
  const parsed = parseTemplate(template);
  const sole = parsed.ok ? solePlaceholder(parsed.parts) : null;
  return sole && placeholderTarget(sole, scope.argumentNames) === 'args' ? sole : null;
}

/** Renders every string leaf of a JSON body; a field that is an optional argument not given is left out. */
export function renderBody(value: unknown, scope: RenderScope, where: string): unknown {
  if (typeof value === 'string') return renderValue(value, scope, where);
  if (Array.isArray(value)) return value.map((item, index) => renderBody(item, scope, `${where}[${index}]`));
  if (value && typeof value === 'object') {
    const given = Object.entries(value).filter(([, item]) => !isAbsentArgument(item, scope));
    return Object.fromEntries(given.map(([key, item]) => [key, renderBody(item, scope, `${where}.${key}`)]));
  }
  return value;
}
