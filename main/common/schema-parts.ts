/** A property schema longer than this as JSON (its check ~20 times as long) is checked by a function of its own. */
const LARGE_PART_CHARS = 400;

type SchemaNode = Record<string, unknown>;

const isNode = (value: unknown): value is SchemaNode => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One of our own schemas with each large property schema moved to `$defs` and
 * referred to, for an Ajv made with `inlineRefs: false`: ajv then compiles each
 * part as its own function, called only when the property is there. Inlined
 * whole, a tool call's result check was one 200 KB function that V8 never
 * optimizes (~6 µs for `{ ok, value }`, the dispatcher's largest cost in a call);
 * apart, the small function that checks what a result usually holds is optimized.
 * The same part met twice (a shared schema) is one definition. Only for schemas
 * without `$ref`s of their own: ours, never people's.
 */
export function withLargePartsApart(schema: object): object {
  const defs: Record<string, unknown> = {};
  const named = new Map<object, string>();

  const part = (value: unknown): unknown => {
    if (!isNode(value)) return value;
    // Inside a schema with an `$id` of its own, `#/$defs/…` would name that schema's definitions: it stays whole.
    const copy = typeof value.$id === 'string' ? value : walk(value);
    if (JSON.stringify(copy).length <= LARGE_PART_CHARS) return copy;
    let name = named.get(value);
    if (!name) {
      name = `part${named.size}`;
      named.set(value, name);
      defs[name] = copy;
    }
    return { $ref: `#/$defs/${name}` };
  };

  const walk = (node: SchemaNode): SchemaNode => {
    const copy: SchemaNode = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && isNode(value)) copy[key] = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, part(property)]));
      else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value)) copy[key] = value.map((branch: unknown) => (isNode(branch) && typeof branch.$id !== 'string' ? walk(branch) : branch));
      else if ((key === 'items' || key === 'additionalProperties') && isNode(value)) copy[key] = part(value);
      else copy[key] = value;
    }
    return copy;
  };

  const root = walk(schema as SchemaNode);
  return Object.keys(defs).length === 0 ? root : { ...root, $defs: { ...(root.$defs as object | undefined), ...defs } };
}
