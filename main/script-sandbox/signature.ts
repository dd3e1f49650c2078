import type * as TS from 'typescript';
import { onFirstUse } from '../common/on-first-use.js';
import { SCHEMA_LIMITS_WORDS, schemaSizeProblem } from '../../shared/tools/schema-limits.js';
import { SchemaReader, TypeTooComplex } from './type-schemas.js';

/** The TypeScript compiler: parser and transpiler, loaded the first time a script is read (it is large). */
const typescript = onFirstUse(async () => (await import('typescript')).default);

type Json = Record<string, unknown>;

/** What a script's default export says about itself, and the module as JavaScript. */
export interface ReadScript {
  /** The module transpiled to JavaScript (types gone), as the sandbox runs it. */
  code: string;
  /** Its parameters in order: arguments are passed by these names. */
  parameters: string[];
  /** The arguments' JSON Schema, from the parameters' types, defaults and `@param` texts. */
  argSchema: Json;
  /** The answer's JSON Schema, when the return type says one. */
  outputSchema?: Json;
  /** The function's doc comment, before its tags. */
  description?: string;
  /** What could not be read: a syntax error, no default export function. */
  problems: { line: number; message: string }[];
  /** Not read at all: the reader was stopped past its time or memory budget (nothing to run, nothing to keep; a later read may do better). */
  stopped?: true;
}

/**
 * Reads a script with the TypeScript compiler: its syntax, its default
 * export's signature and doc comment (JSDoc types in JavaScript), and the
 * JavaScript the sandbox runs. The schema covers string, number, integer (an
 * `@integer` tag, or the `integer` type alias), boolean, arrays, object
 * literals, interfaces and type aliases of the module, string-literal unions
 * as enums; optional parameters and defaults are not required (a literal
 * default is the schema's default).
 */
export async function readScript(source: string, language: 'typescript' | 'javascript'): Promise<ReadScript> {
  const ts = await typescript();
  const fileName = language === 'typescript' ? 'tool.ts' : 'tool.js';
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2022, true, language === 'typescript' ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const transpiled = ts.transpileModule(source, {
    fileName,
    reportDiagnostics: true,
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, allowJs: true, sourceMap: false, removeComments: false },
  });
  const lineOf = (position: number) => file.getLineAndCharacterOfPosition(position).line + 1;
  const problems = (transpiled.diagnostics ?? []).map((diagnostic) => ({
    line: diagnostic.start === undefined ? 1 : lineOf(diagnostic.start),
    message: ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'),
  }));
  const main = defaultExport(ts, file);
  if (!main) {
    problems.push({ line: 1, message: 'The script has no default export function: write `export default function name(…) { … }`.' });
    return { code: transpiled.outputText, parameters: [], argSchema: { type: 'object', properties: {} }, problems };
  }
  const docOf = (node: TS.Node) =>
    ts
      .getJSDocCommentsAndTags(node)
      .filter(ts.isJSDoc)
      .map((doc) => commentText(ts, doc.comment))
      .join('\n');
  const readerOf = () => new SchemaReader(ts, file, (node) => isIntegerTagged(ts, node), docOf, (node) => literalValue(ts, node));
  const args = readerOf();
  const typed = main.parameters.map((parameter) => parameter.type ?? ts.getJSDocParameterTags(parameter)[0]?.typeExpression?.type).filter((node): node is TS.TypeNode => node !== undefined);
  args.countUses(typed);
  const properties: Record<string, Json> = {};
  const required: string[] = [];
  const parameters: string[] = [];
  const returned = main.type ?? ts.getJSDocReturnType(main);
  let argSchema: Json;
  let output: Json | undefined;
  try {
    for (const parameter of main.parameters) {
      const name = ts.isIdentifier(parameter.name) ? parameter.name.text : `arg${parameters.length}`;
      parameters.push(name);
      const tag = ts.getJSDocParameterTags(parameter)[0];
      const typeNode = parameter.type ?? tag?.typeExpression?.type;
      const schema: Json = typeNode ? args.schemaOf(typeNode, isIntegerTagged(ts, parameter)) : parameter.initializer ? schemaOfValue(ts, parameter.initializer) : {};
      const text = tag ? commentText(ts, tag.comment) : '';
      if (text) schema.description = text;
      const initial = parameter.initializer ? literalValue(ts, parameter.initializer) : undefined;
      if (initial !== undefined) schema.default = initial;
      properties[name] = schema;
      if (!parameter.questionToken && !parameter.initializer && !tag?.isBracketed) required.push(name);
    }
    argSchema = args.document({ type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false });
    if (returned) {
      const answer = readerOf();
      const node = unwrapPromise(ts, returned);
      answer.countUses([node]);
      output = answer.document(answer.schemaOf(node, false));
    }
    const tooLarge = schemaSizeProblem(argSchema) ?? (output ? schemaSizeProblem(output) : null);
    if (tooLarge) throw new TypeTooComplex(`the schema they make ${tooLarge} (a tool's schema must stay within ${SCHEMA_LIMITS_WORDS})`);
  } catch (error) {
    if (!(error instanceof TypeTooComplex)) throw error;
    problems.push({ line: lineOf(main.getStart()), message: `The function's types cannot be read as a schema: ${error.message}.` });
    return { code: transpiled.outputText, parameters, argSchema: { type: 'object', properties: {} }, problems };
  }
  const description = docOf(main).trim();
  return {
    code: transpiled.outputText,
    parameters,
    argSchema,
    ...(output && Object.keys(output).length > 0 ? { outputSchema: output } : {}),
    ...(description ? { description } : {}),
    problems,
  };
}

type FunctionLike = TS.FunctionDeclaration | TS.ArrowFunction | TS.FunctionExpression;

/** `export default function …`, `export default (…) => …`, or `export default name` of a function in the module. */
function defaultExport(ts: typeof TS, file: TS.SourceFile): FunctionLike | undefined {
  for (const statement of file.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword)) return statement;
    if (ts.isExportAssignment(statement) && !statement.isExportEquals) {
      const value = statement.expression;
      if (ts.isArrowFunction(value) || ts.isFunctionExpression(value)) return value;
      if (ts.isIdentifier(value)) return functionNamed(ts, file, value.text);
    }
  }
  return undefined;
}

function functionNamed(ts: typeof TS, file: TS.SourceFile, name: string): FunctionLike | undefined {
  for (const statement of file.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name?.text === name) return statement;
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const value = declaration.initializer;
        if (ts.isIdentifier(declaration.name) && declaration.name.text === name && value && (ts.isArrowFunction(value) || ts.isFunctionExpression(value))) return value;
      }
    }
  }
  return undefined;
}

function isIntegerTagged(ts: typeof TS, node: TS.Node): boolean {
  return ts.getJSDocTags(node).some((tag) => tag.tagName.text === 'integer');
}

function commentText(ts: typeof TS, comment: string | TS.NodeArray<TS.JSDocComment> | undefined): string {
  return (ts.getTextOfJSDocComment(comment) ?? '').replace(/^[-\s]+/, '').trim();
}

function unwrapPromise(ts: typeof TS, node: TS.TypeNode): TS.TypeNode {
  if (ts.isTypeReferenceNode(node) && ts.isIdentifier(node.typeName) && node.typeName.text === 'Promise' && node.typeArguments?.length === 1) return node.typeArguments[0]!;
  return node;
}

/** A literal default as JSON (strings, numbers, booleans, null, arrays and objects of them); undefined otherwise. */
function literalValue(ts: typeof TS, node: TS.Expression): unknown {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
  if (ts.isNumericLiteral(node)) return Number(node.text);
  if (ts.isPrefixUnaryExpression(node) && node.operator === ts.SyntaxKind.MinusToken && ts.isNumericLiteral(node.operand)) return -Number(node.operand.text);
  if (node.kind === ts.SyntaxKind.TrueKeyword) return true;
  if (node.kind === ts.SyntaxKind.FalseKeyword) return false;
  if (node.kind === ts.SyntaxKind.NullKeyword) return null;
  if (ts.isArrayLiteralExpression(node)) {
    const items = node.elements.map((element) => literalValue(ts, element));
    return items.every((item) => item !== undefined) ? items : undefined;
  }
  return undefined;
}

/** A parameter without a type, read from its default. */
function schemaOfValue(ts: typeof TS, node: TS.Expression): Json {
  const value = literalValue(ts, node);
  if (typeof value === 'string') return { type: 'string' };
  if (typeof value === 'number') return { type: Number.isInteger(value) ? 'integer' : 'number' };
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (Array.isArray(value)) return { type: 'array' };
  return {};
}
