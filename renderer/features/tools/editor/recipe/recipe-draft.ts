import type { RecipeImpl, RecipeStep } from '../../../../../shared/schemas/recipe-impl.js';
import type { ValueSource } from './sources.js';

/** The JSON types an input may have, as the inputs form offers them. */
export const INPUT_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object'] as const;

export interface InputRow {
  name: string;
  type: string;
  description: string;
  required: boolean;
  default?: unknown;
}

type Schema = { type?: unknown; description?: unknown; default?: unknown };

/** A recipe's inputs form, read from its argSchema. */
export function inputsOf(argSchema: Record<string, unknown>): InputRow[] {
  const properties = ((argSchema as { properties?: Record<string, Schema> }).properties ?? {});
  const required = new Set(Array.isArray(argSchema.required) ? (argSchema.required as string[]) : []);
  return Object.entries(properties).map(([name, schema]) => ({
    name,
    type: typeof schema?.type === 'string' ? schema.type : 'string',
    description: typeof schema?.description === 'string' ? schema.description : '',
    required: required.has(name),
    ...(schema && 'default' in schema ? { default: schema.default } : {}),
  }));
}

/** The argSchema an inputs form makes: one property a row, closed to others. */
export function argSchemaFrom(rows: InputRow[]): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const row of rows) {
    properties[row.name] = { type: row.type, ...(row.type === 'array' ? { items: {} } : {}), ...(row.description ? { description: row.description } : {}), ...(row.default !== undefined ? { default: row.default } : {}) };
  }
  return { type: 'object', properties, required: rows.filter((row) => row.required).map((row) => row.name), additionalProperties: false };
}

/** A step's name from its tool's slug, unlike any other step's: "current-weather" → "current_weather", then "current_weather_2". */
export function stepIdFor(slug: string, taken: readonly string[]): string {
  let base = slug.replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 56) || 'step';
  if (/^\d/.test(base)) base = `s_${base}`;
  let id = base;
  for (let count = 2; taken.includes(id); count++) id = `${base}_${count}`;
  return id;
}

/**
 * A new step calling `tool`, its arguments already taken where the name says
 * where from: an input of the same name, else a field of the nearest earlier
 * result with that name. The person checks and changes them.
 */
export function newStep(tool: { bundleID: string; slug: string; argSchema: Record<string, unknown> }, steps: readonly RecipeStep[], sources: readonly ValueSource[]): RecipeStep {
  const args: Record<string, unknown> = {};
  const names = Object.keys(((tool.argSchema as { properties?: object }).properties ?? {}));
  for (const name of names) {
    const input = sources.find((source) => source.group === 'inputs' && source.label === name);
    const field = [...sources].reverse().find((source) => source.group !== 'inputs' && (source.label.endsWith(`.${name}`) || source.label.endsWith(`['${name}']`)));
    const found = input ?? field;
    if (found) args[name] = found.template;
  }
  return { id: stepIdFor(tool.slug, steps.map((step) => step.id)), tool: { bundleID: tool.bundleID, slug: tool.slug }, args };
}

/** The steps (or anything kept beside them) with one moved from `from` to `to`. */
export function moveStep<T>(steps: readonly T[], from: number, to: number): T[] {
  const moved = [...steps];
  if (from < 0 || from >= moved.length || to < 0 || to >= moved.length) return moved;
  const [step] = moved.splice(from, 1);
  moved.splice(to, 0, step as T);
  return moved;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every template of a value with `pattern` (one name's references) rewritten. */
function rewrite(value: unknown, pattern: RegExp, replacement: string): unknown {
  if (typeof value === 'string') return value.replace(pattern, replacement);
  if (Array.isArray(value)) return value.map((item) => rewrite(item, pattern, replacement));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rewrite(item, pattern, replacement)]));
  return value;
}

/** The recipe with a step renamed, and every reference to its result following it. */
export function renameStep(impl: RecipeImpl, from: string, to: string): RecipeImpl {
  const pattern = new RegExp(`\\$\\{(\\s*)steps\\.${escape(from)}\\.result`, 'g');
  const renamed = rewrite(impl, pattern, `\${$1steps.${to}.result`) as RecipeImpl;
  return { ...renamed, steps: renamed.steps.map((step, index) => (impl.steps[index]!.id === from ? { ...step, id: to } : step)) };
}

/** The recipe with every reference to an input renamed. */
export function renameInput(impl: RecipeImpl, from: string, to: string): RecipeImpl {
  return rewrite(impl, new RegExp(`\\$\\{(\\s*)inputs\\.${escape(from)}(?![A-Za-z0-9_])`, 'g'), `\${$1inputs.${to}`) as RecipeImpl;
}
