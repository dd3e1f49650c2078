import { parseQuery } from '../tools/json-path.js';
import { remembered } from '../tools/remembered.js';
import { scanTemplate, type TemplateProblem } from '../tools/templates.js';

/**
 * What a recipe's `${...}` can name: one of its inputs, the result of an
 * earlier step, the item and index of a for-each step's current run. After
 * an input, `result` or `item` a JSONPath may go on (`.results[0].lat`,
 * `[*].name`).
 */
export type RecipeReference =
  | { kind: 'input'; name: string; path: string; raw: string }
  | { kind: 'step'; step: string; path: string; raw: string }
  | { kind: 'item'; path: string; raw: string }
  | { kind: 'index'; raw: string };

export type RecipeTemplatePart = { kind: 'text'; text: string } | { kind: 'ref'; ref: RecipeReference };

export type ParsedRecipeTemplate = { ok: true; parts: RecipeTemplatePart[] } | { ok: false; problem: TemplateProblem };

const INPUT = /^inputs\.([A-Za-z_][A-Za-z0-9_]*)(.*)$/s;
const STEP = /^steps\.([A-Za-z_][A-Za-z0-9_]*)\.result(.*)$/s;
const ITEM = /^item(.*)$/s;
const USE = 'use ${inputs.NAME}, ${steps.ID.result}, ${steps.ID.result.field}, ${item} or ${index}';

/** Whether `tail` (what follows `result` or `item`) is a JSONPath continuation: `.name`, `[0]`, `['a b']`, `[*]`… */
function pathProblem(tail: string): string | null {
  if (tail === '') return null;
  if (!tail.startsWith('.') && !tail.startsWith('[')) return 'a path goes on with "." or "["';
  try {
    parseQuery(`$${tail}`);
    return null;
  } catch (error) {
    return `its path is not JSONPath (${(error as Error).message.split('\n')[0]})`;
  }
}

function reference(inner: string, raw: string): RecipeReference | string {
  if (inner === 'index') return { kind: 'index', raw };
  if (inner.startsWith('inputs.')) {
    const input = INPUT.exec(inner);
    if (!input) return 'an input name is letters, digits and "_", not starting with a digit';
    const problem = pathProblem(input[2]!);
    return problem ?? { kind: 'input', name: input[1]!, path: input[2]!, raw };
  }
  const step = STEP.exec(inner);
  if (step) {
    const problem = pathProblem(step[2]!);
    return problem ?? { kind: 'step', step: step[1]!, path: step[2]!, raw };
  }
  const item = ITEM.exec(inner);
  if (item && (item[1] === '' || item[1]!.startsWith('.') || item[1]!.startsWith('['))) {
    const problem = pathProblem(item[1]!);
    return problem ?? { kind: 'item', path: item[1]!, raw };
  }
  return USE;
}

/** Reads a recipe template (remembered: a for-each renders the same ones a thousand times). */
export const parseRecipeTemplate = remembered((template: string) => read(template), 2_000);

function read(template: string): ParsedRecipeTemplate {
  const scanned = scanTemplate(template);
  if (!scanned.ok) return scanned;
  const parts: RecipeTemplatePart[] = [];
  for (const part of scanned.parts) {
    if (part.kind === 'text') {
      parts.push(part);
      continue;
    }
    const ref = reference(part.inner, part.raw);
    if (typeof ref === 'string') return { ok: false, problem: { offset: part.offset, message: `${part.raw}: ${ref}` } };
    parts.push({ kind: 'ref', ref });
  }
  return { ok: true, parts };
}

/** Every string inside a templated value, with where it sits (`/args/city`, `/output/0/name`). */
export function templatesIn(value: unknown, where: string, found: { where: string; template: string }[] = [], depth = 0): { where: string; template: string }[] {
  if (depth > 32) return found;
  if (typeof value === 'string') found.push({ where, template: value });
  else if (Array.isArray(value)) value.forEach((item, index) => templatesIn(item, `${where}/${index}`, found, depth + 1));
  else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) templatesIn(item, `${where}/${key}`, found, depth + 1);
  return found;
}

/** The references a templated value makes (templates that do not parse are left to the checker). */
export function referencesIn(value: unknown): RecipeReference[] {
  return templatesIn(value, '').flatMap(({ template }) => {
    const read = parseRecipeTemplate(template);
    return read.ok ? read.parts.flatMap((part) => (part.kind === 'ref' ? [part.ref] : [])) : [];
  });
}
