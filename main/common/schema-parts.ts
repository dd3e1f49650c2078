/** A property schema longer than this as JSON (its check ~20 times as long) is checked by a function of its own. */
const LARGE_PART_CHARS = 400;

type SchemaNode = Record<string, unknown>;

const isNode = (value: unknown): value is SchemaNode => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A property whose schema is a constant (a union branch's `type: "http"`). */
const isConstant = (schema: unknown): boolean => isNode(schema) && 'const' in schema;

/**
 * One of our own schemas arranged for checks that run on every call (the
 * dispatcher's result checks), meaning the same:
 * - Each large property schema is moved to `$defs` and referred to, for an Ajv
 *   made with `inlineRefs: false`: ajv then compiles each part as its own
 *   function, called only when the property is there. Inlined whole, a tool
 *   call's result check was one 200 KB function that V8 never optimizes (~6 µs
 *   for `{ ok, value }`); apart, the small function that checks what a result
 *   usually holds is optimized. The same part met twice is one definition.
 * - An object's constant properties are checked first: a union's wrong branch
 *   (a local tool's schema, for an HTTP tool) then fails at its `type` instead
 *   of after checking every other field (a page of 50 tools took ~4 ms).
 * Only for schemas without `$ref`s of their own: ours, never people's.
 */
export function forFastChecks(schema: object): object {
  const defs: Record<string, unknown> = {};
  const named = new Map<object, string>();

  // Inside a schema with an `$id` of its own, `#/$defs/…` would name that schema's definitions: nothing is moved out of it.
  const part = (value: unknown, movable: boolean): unknown => {
    if (!isNode(value)) return value;
    const inside = movable && typeof value.$id !== 'string';
    const copy = walk(value, inside);
    if (!inside || JSON.stringify(copy).length <= LARGE_PART_CHARS) return copy;
    let name = named.get(value);
    if (!name) {
      name = `part${named.size}`;
      named.set(value, name);
      defs[name] = copy;
    }
    return { $ref: `#/$defs/${name}` };
  };

  const walk = (node: SchemaNode, movable: boolean): SchemaNode => {
    const copy: SchemaNode = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && isNode(value)) {
        const entries = Object.entries(value);
        const ordered = [...entries.filter(([, property]) => isConstant(property)), ...entries.filter(([, property]) => !isConstant(property))];
        copy[key] = Object.fromEntries(ordered.map(([name, property]) => [name, part(property, movable)]));
      } else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value)) {
        copy[key] = value.map((branch: unknown) => (isNode(branch) ? walk(branch, movable && typeof branch.$id !== 'string') : branch));
      } else if ((key === 'items' || key === 'additionalProperties') && isNode(value)) copy[key] = part(value, movable);
      else copy[key] = value;
    }
    return copy;
  };

  const root = walk(schema as SchemaNode, true);
  return Object.keys(defs).length === 0 ? root : { ...root, $defs: { ...(root.$defs as object | undefined), ...defs } };
}
