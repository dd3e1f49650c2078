import type { RecipeImpl } from '../../../../../shared/schemas/recipe-impl.js';

/** A value a step's argument (or the output) can take from what is there at that point of the recipe. */
export interface ValueSource {
  template: string;
  /** Which group the picker lists it under: 'inputs', 'each', or a step's id. */
  group: string;
  /** What it is called in the list: an input's name, a field's path. */
  label: string;
  /** The JSON type it has, where known (an input's schema, an output schema, a trial run's value). */
  type?: string;
  /** The value it had in the last trial run. */
  sample?: unknown;
  hasSample: boolean;
}

const MOST_FIELDS_PER_STEP = 40;
const DEEPEST = 4;

const typeOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' && Number.isInteger(value) ? 'integer' : typeof value);
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const member = (key: string) => (IDENTIFIER.test(key) ? `.${key}` : `['${key.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`);

/** Every field of a value down to a few levels (a list by its first item, and by all items), with its value. */
function fieldsOfValue(value: unknown, path = '', depth = 0, found: { path: string; value: unknown }[] = []): { path: string; value: unknown }[] {
  if (found.length >= MOST_FIELDS_PER_STEP) return found;
  found.push({ path, value });
  if (depth >= DEEPEST) return found;
  if (Array.isArray(value) && value.length > 0) {
    fieldsOfValue(value[0], `${path}[0]`, depth + 1, found);
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) fieldsOfValue(item, `${path}${member(key)}`, depth + 1, found);
  }
  return found;
}

/** The fields an output schema says a result has, when no trial run has shown one. */
function fieldsOfSchema(schema: unknown, path = '', depth = 0, found: { path: string; type?: string }[] = []): { path: string; type?: string }[] {
  if (found.length >= MOST_FIELDS_PER_STEP || !schema || typeof schema !== 'object') return found;
  const node = schema as { type?: unknown; properties?: Record<string, unknown>; items?: unknown };
  found.push({ path, ...(typeof node.type === 'string' ? { type: node.type } : {}) });
  if (depth >= DEEPEST) return found;
  if (node.properties) for (const [key, item] of Object.entries(node.properties)) fieldsOfSchema(item, `${path}${member(key)}`, depth + 1, found);
  else if (node.items) fieldsOfSchema(node.items, `${path}[0]`, depth + 1, found);
  return found;
}

/**
 * What a step at `index` can take its arguments from: the recipe's inputs,
 * the item and index when it runs for each item, and each field of every
 * earlier step's result, shown with the value it had in the last trial run
 * (or the type its tool's output schema gives). `index` past the last step
 * lists what the output can use.
 */
export function sourcesAt(
  impl: Pick<RecipeImpl, 'steps'>,
  argSchema: Record<string, unknown>,
  index: number,
  options: { lastResults?: Record<string, unknown>; outputSchemaOf?: (stepIndex: number) => unknown; forEach?: boolean },
): ValueSource[] {
  const sources: ValueSource[] = [];
  const properties = ((argSchema as { properties?: Record<string, unknown> }).properties ?? {}) as Record<string, { type?: unknown; default?: unknown }>;
  for (const [name, schema] of Object.entries(properties)) {
    sources.push({ template: `\${inputs.${name}}`, group: 'inputs', label: name, ...(typeof schema?.type === 'string' ? { type: schema.type } : {}), hasSample: false });
  }
  if (options.forEach) {
    sources.push({ template: '${item}', group: 'each', label: 'item', hasSample: false }, { template: '${index}', group: 'each', label: 'index', type: 'integer', hasSample: false });
  }
  for (const [at, step] of impl.steps.slice(0, index).entries()) {
    const last = options.lastResults;
    if (last && Object.hasOwn(last, step.id)) {
      for (const field of fieldsOfValue(last[step.id])) {
        sources.push({ template: `\${steps.${step.id}.result${field.path}}`, group: step.id, label: field.path ? `result${field.path}` : 'result', type: typeOf(field.value), sample: field.value, hasSample: true });
      }
    } else {
      const schema = step.forEach ? { type: 'array' } : options.outputSchemaOf?.(at);
      const fields = schema ? fieldsOfSchema(schema) : [{ path: '' }];
      for (const field of fields) sources.push({ template: `\${steps.${step.id}.result${field.path}}`, group: step.id, label: field.path ? `result${field.path}` : 'result', ...(field.type ? { type: field.type } : {}), hasSample: false });
    }
  }
  return sources;
}

/** A sample value as a short line for a list. */
export function sampleText(value: unknown, most = 40): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? 'null');
  return text.length > most ? `${text.slice(0, most - 1)}…` : text;
}
