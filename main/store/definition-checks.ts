import type { Ajv2020 } from 'ajv/dist/2020.js';
import { ToolbeltError, type ValidationIssue } from '../../shared/errors.js';
import type { BundleInput } from '../../shared/schemas/bundle.js';
import { refuseBadHooks } from '../common/hook-checks.js';
import { sendsBodyNotCarried, type BundleHttp, type HttpImpl } from '../../shared/schemas/http-impl.js';
import { AUTH_TEMPLATE_FIELDS, pointerEscape, templatesOf } from '../../shared/tools/http-templates.js';
import { parseTemplate, placeholderTarget, type TemplatePart } from '../../shared/tools/templates.js';
import { compileSchemaOnce, describeIssues, issuesFrom } from '../common/validation.js';
import { linearRegexProblem } from '../common/linear-regex.js';
import { jsonPathProblem } from '../common/json-path-patterns.js';
import { SCHEMA_LIMITS_WORDS, schemaSizeProblem } from '../../shared/tools/schema-limits.js';

const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/**
 * Checks a JSON Schema a person wrote (argSchema, outputSchema) against the
 * draft 2020-12 meta-schema, and its regular expressions (which the
 * meta-schema only types as strings). `compile` also builds schemas that refer to others, which
 * catches what the meta-schema cannot (an unresolvable $ref); compiling is
 * slow, so only writes do it, and only when there is a reference.
 */
export function checkJsonSchema(ajv: Ajv2020, schema: unknown, at: string, compile: boolean): ValidationIssue[] {
  if (typeof schema === 'boolean') return [];
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return [{ path: at, message: 'must be a JSON Schema object' }];
  }
  const declared = (schema as { $schema?: unknown }).$schema;
  if (declared !== undefined && declared !== DRAFT_2020_12 && declared !== `${DRAFT_2020_12}#`) {
    return [{ path: `${at}/$schema`, message: `must be draft 2020-12 (${DRAFT_2020_12}) or absent` }];
  }
  if (!ajv.validateSchema(schema)) {
    return issuesFrom(ajv.errors).map((issue) => ({ ...issue, path: at + (issue.path === '/' ? '' : issue.path) }));
  }
  const walked = walkSchema(schema);
  if (walked.badPattern) return [{ path: at + walked.badPattern.path, message: walked.badPattern.message }];
  if (compile && walked.hasReference) {
    try {
      compileSchemaOnce(ajv, schema);
    } catch (error) {
      return [{ path: at, message: (error as Error).message }];
    }
  }
  return [];
}

const REFERENCE_KEYS = new Set(['$ref', '$dynamicRef', '$recursiveRef']);

/**
 * One walk over a schema: its first `pattern` or `patternProperties` key that
 * is not a valid regular expression, and whether it refers anywhere. The
 * walk keeps the keys it is under and makes a path only for a problem: an
 * imported API's schemas are large (GitHub's 1,200 tools), and a path string
 * for every node, or the schema printed to look for "$ref", made hundreds of
 * megabytes of garbage per import.
 */
function walkSchema(root: object): { badPattern?: { path: string; message: string }; hasReference: boolean } {
  // The keys of the objects the walk is in; a problem ends the walk, so they are not taken off on the way out of it.
  const keys: string[] = [];
  const pathTo = (key: string) => [...keys, key].map((part) => `/${pointerEscape(part)}`).join('');
  let hasReference = false;
  const visit = (node: object): { path: string; message: string } | undefined => {
    const isArray = Array.isArray(node);
    for (const key in node) {
      if (!Object.hasOwn(node, key)) continue;
      const value = (node as Record<string, unknown>)[key];
      if (!isArray) {
        if (REFERENCE_KEYS.has(key)) hasReference = true;
        const problem = key === 'pattern' && typeof value === 'string' ? linearRegexProblem(value) : null;
        if (problem) return { path: pathTo(key), message: problem };
        if (key === 'patternProperties' && value && typeof value === 'object') {
          for (const pattern of Object.keys(value)) {
            const bad = linearRegexProblem(pattern);
            if (bad) return { path: `${pathTo(key)}/${pointerEscape(pattern)}`, message: bad };
          }
        }
      }
      // Only objects and lists are walked into: a call for each string and number was most of the walk.
      if (value === null || typeof value !== 'object') continue;
      keys.push(key);
      const found = visit(value);
      if (found) return found;
      keys.pop();
    }
    return undefined;
  };
  const badPattern = visit(root);
  return badPattern ? { badPattern, hasReference } : { hasReference };
}

/**
 * A definition's schemas past the limits every tool keeps, checked before
 * anything walks or compiles them: a schema built to be huge costs no more
 * than the limit to refuse.
 */
export function oversizedSchemas(schemas: { argSchema?: unknown; outputSchema?: unknown }, sizeProblem: (schema: unknown) => string | null = schemaSizeProblem): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  for (const key of ['argSchema', 'outputSchema'] as const) {
    const problem = schemas[key] === undefined ? null : sizeProblem(schemas[key]);
    if (problem) issues.push({ path: `/${key}`, message: `${problem}; a tool's schema must stay within ${SCHEMA_LIMITS_WORDS} (write a type used in many places once under $defs and refer to it with $ref)` });
  }
  return issues;
}

export function argumentNames(argSchema: Record<string, unknown>): Set<string> {
  const properties = argSchema.properties;
  return new Set(properties && typeof properties === 'object' ? Object.keys(properties) : []);
}

/** Rules of an HTTP impl that a schema cannot express. */
export function checkHttpImpl(impl: HttpImpl, argSchema: Record<string, unknown>): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const names = argumentNames(argSchema);
  if (impl.body !== undefined && impl.bodyTemplate !== undefined) {
    issues.push({ path: '/impl/bodyTemplate', message: 'use either body or bodyTemplate, not both' });
  }
  if (impl.multipart && impl.body === undefined) {
    issues.push({ path: '/impl/multipart', message: 'multipart sends the fields of body, so body is required' });
  }
  if (sendsBodyNotCarried(impl)) {
    issues.push({ path: '/impl/method', message: `${impl.method} requests carry no body; use query instead, or form fields (body with Content-Type application/x-www-form-urlencoded), which are sent in the query` });
  }
  for (const { path, template, part } of placeholdersIn(templatesOf(impl), issues)) {
    if (part.source === 'args' && !names.has(part.name)) {
      issues.push({ path, message: `${part.raw} is not an argument of argSchema (its properties are: ${[...names].join(', ') || 'none'})` });
    }
    if (placeholderTarget(part, names) === 'secret' && path === '/impl/urlTemplate' && isInHost(template, part.raw)) issues.push(secretInHost(path, part));
  }
  for (const argument of Object.keys(impl.styles ?? {})) {
    if (!names.has(argument)) issues.push({ path: `/impl/styles/${pointerEscape(argument)}`, message: `styles names "${argument}", which is not an argument of argSchema (its properties are: ${[...names].join(', ') || 'none'})` });
  }
  if (impl.extractExpr !== undefined) {
    const problem = checkExtractExpr(impl.extractExpr);
    if (problem) issues.push({ path: '/impl/extractExpr', message: problem });
  }
  return issues;
}

/**
 * A bundle's connection settings are filled in for every tool, whatever its
 * arguments are: their placeholders name secrets outright (`${secret.NAME}`),
 * so a tool with an argument of the same name cannot take a header's place.
 */
export function checkBundleHttp(http: BundleHttp): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const templates: { path: string; template: string }[] = [];
  if (http.baseUrl !== undefined) templates.push({ path: '/http/baseUrl', template: http.baseUrl });
  for (const [name, template] of Object.entries(http.headers ?? {})) templates.push({ path: `/http/headers/${pointerEscape(name)}`, template });
  for (const [key, value] of Object.entries(http.auth ?? {})) {
    if (AUTH_TEMPLATE_FIELDS.has(key) && typeof value === 'string') templates.push({ path: `/http/auth/${key}`, template: value });
  }
  for (const { path, template, part } of placeholdersIn(templates, issues)) {
    if (part.source !== 'secret') {
      issues.push({ path, message: `${part.raw} must name a secret as \${secret.${part.name}}: a bundle's settings are the same for every tool and take no arguments` });
    } else if (path === '/http/baseUrl' && isInHost(template, part.raw)) issues.push(secretInHost(path, part));
  }
  return issues;
}

type Placeholder = Extract<TemplatePart, { kind: 'placeholder' }>;

const secretInHost = (path: string, part: Placeholder): ValidationIssue => ({
  path,
  message: `${part.raw} is a secret inside the host name; the host must be visible to be checked against the allowlist`,
});

/** Every placeholder of these templates; a template that does not parse is an issue instead. */
function* placeholdersIn(templates: Iterable<{ path: string; template: string }>, issues: ValidationIssue[]): Generator<{ path: string; template: string; part: Placeholder }> {
  for (const { path, template } of templates) {
    const parsed = parseTemplate(template);
    if (!parsed.ok) issues.push({ path, message: parsed.problem.message });
    else for (const part of parsed.parts) if (part.kind === 'placeholder') yield { path, template, part };
  }
}

function isInHost(urlTemplate: string, raw: string): boolean {
  const afterScheme = urlTemplate.replace(/^https?:\/\//, '');
  const hostEnd = afterScheme.search(/[/?#]/);
  const host = hostEnd === -1 ? afterScheme : afterScheme.slice(0, hostEnd);
  return host.includes(raw);
}

/** `$…` is a JSONPath (RFC 9535), `/pattern/flags` a regular expression. */
export function checkExtractExpr(expression: string): string | null {
  if (expression.startsWith('$')) {
    const problem = jsonPathProblem(expression);
    return problem ? `is not valid JSONPath (RFC 9535): ${problem}` : null;
  }
  const regex = /^\/(.*)\/([dgimsuvy]*)$/s.exec(expression);
  if (!regex) return 'must be a JSONPath starting with "$" or a regular expression written /pattern/flags';
  return linearRegexProblem(regex[1]!, regex[2]);
}

/** What the schema cannot say about a bundle: its connection settings' templates, its hooks' matchers. */
export function refuseBadBundle(input: BundleInput): void {
  const problems = input.http ? checkBundleHttp(input.http) : [];
  if (problems.length > 0) throw new ToolbeltError('invalid_params', `The bundle's connection settings are invalid: ${describeIssues(problems)}`, { issues: problems });
  if (input.hooks) refuseBadHooks(input.hooks);
}
