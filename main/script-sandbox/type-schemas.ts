import type * as TS from 'typescript';

type Json = Record<string, unknown>;

/** A named type whose schema, inlined, would be longer than this is written once under `$defs` when it is used twice or more. */
const INLINE_AT_MOST_CHARS = 240;
/** Type syntax nested deeper than this is not read: no signature a person writes needs it, and recursion must stay bounded. */
const MAX_TYPE_DEPTH = 64;

/** A script's types could not be read within the reader's bounds; the message says which. */
export class TypeTooComplex extends Error {}

type NamedType = TS.InterfaceDeclaration | TS.TypeAliasDeclaration;

/**
 * Type syntax to JSON Schema, following the module's own interfaces and type
 * aliases (not its imports). A named type is read once, however often it is
 * used: used once (or small) it is written in place, as a person reads it;
 * used again and larger it is written once under the document's `$defs` and
 * referred to (`$ref`), and a type that holds itself is a `$ref` to itself.
 * So the schema grows with the source, never with the number of paths
 * through it: `type T0 = { a: T1; b: T1 }` down twenty levels is twenty
 * definitions, not a million copies.
 *
 * One reader makes one schema document (the arguments', or the answer's):
 * `document()` adds the `$defs` its references need at the top.
 */
export class SchemaReader {
  private readonly named = new Map<string, NamedType>();
  private readonly uses = new Map<string, number>();
  private readonly bodies = new Map<string, Json>();
  /** Named types already written in place once. */
  private readonly handedOut = new Set<string>();
  private readonly reading = new Set<string>();
  private readonly defs: Record<string, Json> = {};

  constructor(
    private readonly ts: typeof TS,
    file: TS.SourceFile,
    /** Whether a type node carries `@integer` (a parameter or a property). */
    private readonly integerTagged: (node: TS.Node) => boolean,
    /** A property's doc comment. */
    private readonly docOf: (node: TS.Node) => string,
    /** A literal default or const as JSON; undefined when it is not one. */
    private readonly literal: (node: TS.Expression) => unknown,
  ) {
    for (const statement of file.statements) {
      // The first declaration of a name is the one read (an interface merged from several is not followed further).
      if ((ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) && !this.named.has(statement.name.text)) this.named.set(statement.name.text, statement);
    }
  }

  /**
   * Counts how often each named type is used from these roots, each
   * declaration walked once; `schemaOf` then knows which to write once.
   */
  countUses(roots: readonly TS.Node[]): void {
    const { ts } = this;
    const walked = new Set<string>();
    const pending: TS.Node[] = [...roots];
    while (pending.length > 0) {
      const node = pending.pop()!;
      if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName)) {
        const name = node.typeName.text;
        const declaration = this.named.get(name);
        if (declaration) {
          this.uses.set(name, (this.uses.get(name) ?? 0) + 1);
          if (!walked.has(name)) {
            walked.add(name);
            pending.push(declaration);
          }
        }
      }
      ts.forEachChild(node, (child) => {
        pending.push(child);
      });
    }
  }

  schemaOf(node: TS.TypeNode, integer: boolean, depth = 0): Json {
    const { ts } = this;
    if (depth > MAX_TYPE_DEPTH) throw new TypeTooComplex(`its types nest deeper than ${MAX_TYPE_DEPTH} levels`);
    const next = depth + 1;
    switch (node.kind) {
      case ts.SyntaxKind.StringKeyword:
        return { type: 'string' };
      case ts.SyntaxKind.NumberKeyword:
        return { type: integer ? 'integer' : 'number' };
      case ts.SyntaxKind.BooleanKeyword:
        return { type: 'boolean' };
      case ts.SyntaxKind.NullKeyword:
        return { type: 'null' };
      default:
        break;
    }
    if (ts.isParenthesizedTypeNode(node)) return this.schemaOf(node.type, integer, next);
    if (ts.isLiteralTypeNode(node)) {
      const value = node.literal.kind === ts.SyntaxKind.NullKeyword ? null : this.literal(node.literal);
      return value === undefined ? {} : { const: value };
    }
    if (ts.isArrayTypeNode(node)) return { type: 'array', items: this.schemaOf(node.elementType, integer, next) };
    if (ts.isTypeLiteralNode(node)) return this.objectOf(node.members, next);
    if (ts.isUnionTypeNode(node)) return this.unionOf(node, integer, next);
    if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName)) return this.referenceOf(node.typeName.text, node.typeArguments, integer, next);
    return {};
  }

  /** The schema with the definitions its references need, at the top of the document. */
  document(schema: Json): Json {
    return Object.keys(this.defs).length > 0 ? { ...schema, $defs: this.defs } : schema;
  }

  private objectOf(members: TS.NodeArray<TS.TypeElement>, depth: number): Json {
    const { ts } = this;
    const properties: Record<string, Json> = {};
    const required: string[] = [];
    for (const member of members) {
      if (!ts.isPropertySignature(member) || !member.type) continue;
      const name = ts.isIdentifier(member.name) || ts.isStringLiteral(member.name) ? member.name.text : undefined;
      if (!name) continue;
      const schema = this.schemaOf(member.type, this.integerTagged(member), depth);
      const text = this.docOf(member);
      if (text) schema.description = text;
      properties[name] = schema;
      if (!member.questionToken) required.push(name);
    }
    return { type: 'object', properties, ...(required.length ? { required } : {}) };
  }

  private unionOf(node: TS.UnionTypeNode, integer: boolean, depth: number): Json {
    const { ts } = this;
    // `| undefined` says optional, which the parameter or property already says.
    const kinds = node.types.filter((type) => type.kind !== ts.SyntaxKind.UndefinedKeyword);
    const literals = kinds.map((type) => (ts.isLiteralTypeNode(type) && ts.isStringLiteral(type.literal) ? type.literal.text : undefined));
    if (literals.every((value) => value !== undefined)) return { type: 'string', enum: literals };
    if (kinds.length === 1) return this.schemaOf(kinds[0]!, integer, depth);
    return { anyOf: kinds.map((type) => this.schemaOf(type, integer, depth)) };
  }

  private referenceOf(name: string, args: TS.NodeArray<TS.TypeNode> | undefined, integer: boolean, depth: number): Json {
    if ((name === 'Array' || name === 'ReadonlyArray') && args?.length === 1) return { type: 'array', items: this.schemaOf(args[0]!, integer, depth) };
    if (name === 'integer') return { type: 'integer' };
    if (name === 'Record' && args?.length === 2) return { type: 'object', additionalProperties: this.schemaOf(args[1]!, integer, depth) };
    const declaration = this.named.get(name);
    if (!declaration) return {};
    // `@integer` on a parameter reaches into the types it names: that reading is its own definition.
    const key = integer ? `${name}.integer` : name;
    const reference = { $ref: `#/$defs/${key}` };
    // A type that holds itself: a reference, and its definition is written once its reading ends.
    if (this.reading.has(key)) {
      this.defs[key] ??= {};
      return reference;
    }
    let body = this.bodies.get(key);
    if (!body) {
      this.reading.add(key);
      try {
        body = this.ts.isInterfaceDeclaration(declaration) ? this.objectOf(declaration.members, depth) : this.schemaOf(declaration.type, integer, depth);
      } finally {
        this.reading.delete(key);
      }
      this.bodies.set(key, body);
      if (key in this.defs) this.defs[key] = body;
    }
    if (key in this.defs) return reference;
    // Callers add a description or a default at the top of what they get: a shallow copy keeps the body as read.
    const usedOnce = (this.uses.get(name) ?? 0) <= 1 && !this.handedOut.has(key);
    this.handedOut.add(key);
    if (usedOnce) return { ...body };
    if (!longerThan(body, INLINE_AT_MOST_CHARS)) return structuredClone(body);
    this.defs[key] = body;
    return reference;
  }
}

/** Whether a schema written as JSON would be longer than `limit` characters, walking no further than it takes to know. */
function longerThan(value: unknown, limit: number): boolean {
  let left = limit;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node === 'string') left -= node.length + 2;
    else if (node === null || typeof node !== 'object') left -= 5;
    else {
      left -= 2;
      for (const [key, child] of Object.entries(node)) {
        left -= key.length + 4;
        pending.push(child);
      }
    }
    if (left < 0) return true;
  }
  return false;
}
