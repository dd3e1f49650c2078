import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorCode, ValidationIssue } from '../../shared/errors.js';
import { BundleFileSchema, type BundleFile } from '../../shared/schemas/bundle.js';
import type { HttpImpl } from '../../shared/schemas/http-impl.js';
import {
  IMPL_SCHEMAS,
  ToolFileEnvelopeSchema,
  ToolInputSchema,
  type ToolFile,
  type WrittenToolFile,
  type ToolInput,
  type ToolType,
} from '../../shared/schemas/tool.js';
import { schemaSizeProblem } from '../../shared/tools/schema-limits.js';
import { issuesFrom, type Validator } from '../common/validation.js';
import { checkHttpImpl, checkJsonSchema, oversizedSchemas } from './definition-checks.js';

/** A failure says its issues, and a code of its own when it is not a plain invalid document (a schema past the limits). */
export type Checked<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[]; code?: Extract<ErrorCode, 'schema_too_large'> };

interface Definition {
  type: Exclude<ToolType, 'mcp'>;
  impl: Record<string, unknown>;
  argSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown> | boolean;
}

/** Validates bundle.json, tool.json and tools.put bodies, with paths a person can follow. */
export interface DocumentValidator {
  bundleFile(value: unknown): Checked<BundleFile>;
  /** `thorough` also compiles the schemas (writes do; the cold load does not). */
  toolFile(value: unknown, thorough: boolean): Checked<ToolFile>;
  toolInput(value: unknown): Checked<ToolInput>;
}

/**
 * `schemasMetAgain`: the definitions checked share schema objects that nothing changes (an import's preview: its tools
 * share the converted schemas of the components they use): each schema object's problems are found once and said again
 * for every definition it is part of. Never for definitions that may be changed after a check (the store's).
 */
export function createDocumentValidator(ajv: Ajv2020, options: { schemasMetAgain?: boolean } = {}): DocumentValidator {
  // Each validator is compiled on first use: a start-up whose files all hit
  // the validation cache needs none of the tool ones.
  const lazily = (schema: object) => {
    let compiled: Validator | null = null;
    return () => (compiled ??= ajv.compile(schema));
  };
  const bundleFile = lazily(BundleFileSchema);
  const envelope = lazily(ToolFileEnvelopeSchema);
  const input = lazily(ToolInputSchema);
  const impls: Record<Exclude<ToolType, 'mcp'>, () => Validator> = {
    local: lazily(IMPL_SCHEMAS.local),
    http: lazily(IMPL_SCHEMAS.http),
    agent: lazily(IMPL_SCHEMAS.agent),
    script: lazily(IMPL_SCHEMAS.script),
    recipe: lazily(IMPL_SCHEMAS.recipe),
  };

  // Problems by schema object, their paths from the schema itself (the definition's key is put in front of each).
  const checkedSchemas = options.schemasMetAgain ? new WeakMap<object, { oversized: string | null; issues?: ValidationIssue[] }>() : undefined;
  const checkedOnce = (memo: NonNullable<typeof checkedSchemas>, schema: object) => {
    let checked = memo.get(schema);
    if (!checked) memo.set(schema, (checked = { oversized: schemaSizeProblem(schema) }));
    return checked;
  };
  const sizeProblem = (schema: unknown) => (checkedSchemas && isObject(schema) ? checkedOnce(checkedSchemas, schema).oversized : schemaSizeProblem(schema));
  const schemaIssues = (schema: unknown, at: string): ValidationIssue[] => {
    if (!checkedSchemas || !isObject(schema)) return checkJsonSchema(ajv, schema, at, true);
    const checked = checkedOnce(checkedSchemas, schema);
    checked.issues ??= checkJsonSchema(ajv, schema, '', true);
    return checked.issues.map((issue) => ({ ...issue, path: at + issue.path }));
  };

  function shape<T>(validate: Validator, value: unknown): Checked<T> {
    return validate(value) ? { ok: true, value: value as T } : { ok: false, issues: issuesFrom(validate.errors) };
  }

  /** Problems of a definition; schemas past the limits are the only ones said, as schema_too_large. */
  function definition(value: Definition, thorough: boolean): { issues: ValidationIssue[]; code?: 'schema_too_large' } {
    const tooLarge = oversizedSchemas(value, sizeProblem);
    return tooLarge.length ? { issues: tooLarge, code: 'schema_too_large' } : { issues: definitionProblems(value, thorough) };
  }

  function definitionProblems(value: Definition, thorough: boolean): ValidationIssue[] {
    const impl = impls[value.type]();
    if (!impl(value.impl)) {
      return issuesFrom(impl.errors).map((issue) => ({ ...issue, path: '/impl' + (issue.path === '/' ? '' : issue.path) }));
    }
    const issues = thorough ? schemaIssues(value.argSchema, '/argSchema') : checkJsonSchema(ajv, value.argSchema, '/argSchema', false);
    if (issues.length === 0 && value.argSchema.type !== 'object') {
      issues.push({ path: '/argSchema/type', message: 'must be "object": tools take named arguments' });
    }
    if (value.outputSchema !== undefined) issues.push(...(thorough ? schemaIssues(value.outputSchema, '/outputSchema') : checkJsonSchema(ajv, value.outputSchema, '/outputSchema', false)));
    if (issues.length === 0 && value.type === 'http') {
      issues.push(...checkHttpImpl(value.impl as unknown as HttpImpl, value.argSchema));
    }
    return issues;
  }

  return {
    bundleFile: (value) => shape<BundleFile>(bundleFile(), value),
    toolFile(value, thorough) {
      const checked = shape<WrittenToolFile>(envelope(), value);
      if (!checked.ok) return checked;
      const { issues, code } = definition(checked.value, thorough);
      return issues.length ? { ok: false, issues, ...(code ? { code } : {}) } : checked;
    },
    toolInput(value) {
      const checked = shape<ToolInput>(input(), value);
      if (checked.ok) {
        const { issues, code } = definition(checked.value, true);
        return issues.length ? { ok: false, issues, ...(code ? { code } : {}) } : checked;
      }
      // An editor checks as the person types: a missing name must not hide a broken URL, so the definition is checked too when it can be.
      const more = looksLikeDefinition(value) ? definition(value, true) : { issues: [] };
      const seen = new Set(checked.issues.map((issue) => `${issue.path} ${issue.message}`));
      return { ok: false, issues: [...checked.issues, ...more.issues.filter((issue) => !seen.has(`${issue.path} ${issue.message}`))], ...(more.code ? { code: more.code } : {}) };
    },
  };
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Enough of a definition to check its implementation and schemas on their own. */
function looksLikeDefinition(value: unknown): value is Definition {
  if (!isPlainObject(value)) return false;
  const { type, impl, argSchema, outputSchema } = value;
  return (type === 'http' || type === 'local') && isPlainObject(impl) && isPlainObject(argSchema) && (outputSchema === undefined || typeof outputSchema === 'boolean' || isPlainObject(outputSchema));
}
