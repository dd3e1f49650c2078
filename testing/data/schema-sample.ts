/**
 * Values for the operation fuzz, drawn from an operation's own params schema
 * (TypeBox, so JSON Schema): a plausible instance that passes validation as
 * often as a schema lets a sampler, and hostile values to put in its places.
 * Seeded, so a failing run can be run again as it was.
 */

type Schema = Record<string, unknown>;

/** A small, fast, seeded generator (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Sampler {
  random: () => number;
  /** Strings worth trying where a schema asks for one: known IDs of the seeded data first. */
  strings: string[];
  /** Values for properties of these names, where the schema takes them (`chatId` → the seeded chat). */
  named: Record<string, unknown>;
}

const pick = <T>(sampler: Sampler, items: readonly T[]): T => items[Math.floor(sampler.random() * items.length)]!;

function matches(schema: Schema, text: string): boolean {
  if (typeof schema.minLength === 'number' && [...text].length < schema.minLength) return false;
  if (typeof schema.maxLength === 'number' && [...text].length > schema.maxLength) return false;
  if (typeof schema.pattern === 'string') {
    try {
      if (!new RegExp(schema.pattern, 'u').test(text)) return false;
    } catch {
      return false;
    }
  }
  return true;
}

/** A value the schema most likely accepts. */
export function sample(schema: Schema, sampler: Sampler, depth = 0): unknown {
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return pick(sampler, schema.enum);
  const choices = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (choices) return sample(pick(sampler, choices), sampler, depth + 1);
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set((schema.required as string[] | undefined) ?? []);
      for (const [key, property] of Object.entries((schema.properties as Record<string, Schema> | undefined) ?? {})) {
        if (!required.has(key) && (depth >= 4 || sampler.random() >= 0.5)) continue;
        const known = sampler.named[key];
        out[key] = known !== undefined && (typeof known !== 'string' || matches(property, known)) ? known : sample(property, sampler, depth + 1);
      }
      const patterned = Object.entries((schema.patternProperties as Record<string, Schema> | undefined) ?? {});
      if (patterned.length && depth < 4 && sampler.random() < 0.7) {
        const [pattern, value] = patterned[0]!;
        const key = sampler.strings.find((text) => matches({ pattern }, text)) ?? 'a';
        out[key] = sample(value, sampler, depth + 1);
      }
      return out;
    }
    case 'array': {
      const items = (schema.items as Schema | undefined) ?? {};
      const least = typeof schema.minItems === 'number' ? schema.minItems : 0;
      const length = Math.min(least + Math.floor(sampler.random() * 3), typeof schema.maxItems === 'number' ? schema.maxItems : 3);
      const values = Array.from({ length }, () => sample(items, sampler, depth + 1));
      return schema.uniqueItems ? [...new Map(values.map((value) => [JSON.stringify(value), value])).values()] : values;
    }
    case 'string': {
      const fitting = sampler.strings.filter((text) => matches(schema, text));
      if (fitting.length) return sampler.random() < 0.7 ? fitting[0] : pick(sampler, fitting);
      return 'a'.repeat(typeof schema.minLength === 'number' ? Math.max(1, schema.minLength) : 1);
    }
    case 'integer':
    case 'number': {
      const least = typeof schema.minimum === 'number' ? schema.minimum : 0;
      const most = typeof schema.maximum === 'number' ? schema.maximum : least + 100;
      return Math.round(least + sampler.random() * Math.min(most - least, 1_000));
    }
    case 'boolean':
      return sampler.random() < 0.5;
    case 'null':
      return null;
    default:
      return pick(sampler, sampler.strings);
  }
}

/** Values that have broken parsers, walkers and handlers before. */
export function hostileValues(): unknown[] {
  let deep: unknown = 'bottom';
  for (let level = 0; level < 200; level++) deep = { d: deep };
  let deepList: unknown = [];
  for (let level = 0; level < 5_000; level++) deepList = [deepList];
  return [
    '',
    ' ',
    '..',
    '../../../etc/passwd',
    '/etc/passwd',
    'C:\\Windows\\win.ini',
    'file:///etc/passwd',
    'http://169.254.169.254/latest/meta-data',
    '\uD800',
    'a\u0000b',
    '\u202Eevil',
    '${secret.PROVIDER_OPENAI_API_KEY}',
    '{{7*7}}',
    '<script>alert(1)</script>',
    '(a+)+$',
    'x'.repeat(100_000),
    -1,
    0,
    1e308,
    -1e308,
    2 ** 53 + 1,
    true,
    null,
    [],
    [null],
    {},
    JSON.parse('{"__proto__":{"polluted":true}}') as unknown,
    { constructor: { prototype: { polluted: true } } },
    deep,
    deepList,
    Array.from({ length: 10_000 }, (_, index) => index),
  ];
}
