import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { AgentImplSchema } from './agent.js';
import { HttpImplSchema, LocalImplSchema, McpImplSchema } from './http-impl.js';
import { RecipeImplSchema } from './recipe-impl.js';
import { ScriptImplSchema } from './script-impl.js';
import { SlugSchema, TagSchema, TimestampSchema, ToolNameSchema, UuidV7Schema, VersionSchema } from './ids.js';

/** A JSON Schema document: an object (checked against the 2020-12 meta-schema by the store). */
export const JsonSchemaDocument = Type.Record(Type.String(), Type.Unknown(), {
  description: 'A JSON Schema (draft 2020-12)',
});

/** Kinds of tools people write into files. */
export const ToolTypeSchema = Type.Union([Type.Literal('local'), Type.Literal('http'), Type.Literal('agent'), Type.Literal('script'), Type.Literal('recipe')]);
/** Every kind a runner takes: the written ones, and tools of MCP servers. */
export type ToolType = Static<typeof ToolTypeSchema> | 'mcp';

/** Fields a person writes; the store adds identity and timestamps. */
const definitionFields = {
  displayName: Type.String({ minLength: 1, maxLength: 200, hint: 'Give it a name people will recognise (up to 200 characters).' }),
  description: Type.String({ maxLength: 8_000 }),
  tags: Type.Array(TagSchema, { uniqueItems: true, maxItems: 32 }),
  isEnabled: Type.Boolean(),
  requiresApproval: Type.Optional(Type.Boolean({ description: 'Ask before every call' })),
  argSchema: JsonSchemaDocument,
  outputSchema: Type.Optional(Type.Union([JsonSchemaDocument, Type.Boolean()])),
};

const identityFields = {
  schemaVersion: Type.Literal('1'),
  toolID: UuidV7Schema,
  bundleID: UuidV7Schema,
  slug: SlugSchema,
  version: VersionSchema,
  isBuiltIn: Type.Boolean(),
  createdAt: TimestampSchema,
  modifiedAt: TimestampSchema,
};

/** Canonical key order of tool.json, so files diff well. */
export const TOOL_FILE_KEY_ORDER = [
  'schemaVersion',
  'toolID',
  'bundleID',
  'slug',
  'version',
  'displayName',
  'description',
  'tags',
  'type',
  'isEnabled',
  'isBuiltIn',
  'requiresApproval',
  'argSchema',
  'outputSchema',
  'impl',
  'createdAt',
  'modifiedAt',
] as const;

export const LocalToolFileSchema = Type.Object(
  { ...identityFields, ...definitionFields, type: Type.Literal('local'), impl: LocalImplSchema },
  { additionalProperties: false },
);
export const HttpToolFileSchema = Type.Object(
  { ...identityFields, ...definitionFields, type: Type.Literal('http'), impl: HttpImplSchema },
  { additionalProperties: false },
);
export const AgentToolFileSchema = Type.Object(
  { ...identityFields, ...definitionFields, type: Type.Literal('agent'), impl: AgentImplSchema },
  { additionalProperties: false },
);
export const ScriptToolFileSchema = Type.Object(
  { ...identityFields, ...definitionFields, type: Type.Literal('script'), impl: ScriptImplSchema },
  { additionalProperties: false },
);
export const RecipeToolFileSchema = Type.Object(
  { ...identityFields, ...definitionFields, type: Type.Literal('recipe'), impl: RecipeImplSchema },
  { additionalProperties: false },
);
export const ToolFileSchema = Type.Union([LocalToolFileSchema, HttpToolFileSchema, AgentToolFileSchema, ScriptToolFileSchema, RecipeToolFileSchema], { $id: 'ToolFile' });
/** A tool of an MCP server, shaped like a tool file so lists, search, switches and runs treat it alike. */
export const McpToolSchema = Type.Object(
  { ...identityFields, ...definitionFields, slug: ToolNameSchema, type: Type.Literal('mcp'), impl: McpImplSchema },
  { additionalProperties: false },
);
/** What a tool file on disk (or a tools.put) holds: the kinds people write. */
export type WrittenToolFile = Static<typeof ToolFileSchema>;
export type ToolFile = WrittenToolFile | Static<typeof McpToolSchema>;

/**
 * The first validation pass over tool.json: every field but the impl, whose
 * schema depends on `type`. Two passes give errors at the right path instead
 * of an anyOf over both variants.
 */
export const ToolFileEnvelopeSchema = Type.Object(
  { ...identityFields, ...definitionFields, type: ToolTypeSchema, impl: Type.Record(Type.String(), Type.Unknown()) },
  { additionalProperties: false },
);

export const IMPL_SCHEMAS: Record<Static<typeof ToolTypeSchema>, TSchema> = { local: LocalImplSchema, http: HttpImplSchema, agent: AgentImplSchema, script: ScriptImplSchema, recipe: RecipeImplSchema };

/**
 * Body of tools.put: the definition. Identity fields may be echoed back (a
 * tool.json edited as a whole); the store checks they match the URL and
 * ignores server-owned ones (toolID, timestamps).
 */
export const ToolInputSchema = Type.Object(
  {
    schemaVersion: Type.Optional(Type.Literal('1')),
    toolID: Type.Optional(UuidV7Schema),
    bundleID: Type.Optional(UuidV7Schema),
    slug: Type.Optional(SlugSchema),
    version: Type.Optional(VersionSchema),
    isBuiltIn: Type.Optional(Type.Literal(false)),
    createdAt: Type.Optional(TimestampSchema),
    modifiedAt: Type.Optional(TimestampSchema),
    displayName: definitionFields.displayName,
    description: Type.Optional(definitionFields.description),
    tags: Type.Optional(definitionFields.tags),
    isEnabled: Type.Optional(Type.Boolean()),
    requiresApproval: definitionFields.requiresApproval,
    argSchema: definitionFields.argSchema,
    outputSchema: definitionFields.outputSchema,
    type: ToolTypeSchema,
    impl: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: false, $id: 'ToolInput' },
);
export type ToolInput = Static<typeof ToolInputSchema>;

/** Body of tools.put and tools.validate as sent: a script tool may leave out its argSchema, which the core reads from its function. */
export const ToolPutInputSchema = Type.Object({ ...ToolInputSchema.properties, argSchema: Type.Optional(definitionFields.argSchema) }, { additionalProperties: false, $id: 'ToolPutInput' });
export type ToolPutInput = Static<typeof ToolPutInputSchema>;

export const UsageSchema = Type.Object(
  { callCount: Type.Integer({ minimum: 0 }), lastCalledAt: Type.Optional(TimestampSchema) },
  { additionalProperties: false },
);
export type Usage = Static<typeof UsageSchema>;

const viewFields = {
  // Tools of read-only sources keep their own names (an MCP tool's "get_weather").
  slug: ToolNameSchema,
  status: Type.Literal('valid'),
  usage: UsageSchema,
  /** From a source Toolbelt does not write (built-ins, an MCP server): it cannot be edited, only switched. */
  readOnly: Type.Boolean(),
  available: Type.Boolean(),
  unavailableReason: Type.Optional(Type.String()),
  /** Why it cannot run now, switches included (the sentence a refusal carries); absent when it can. */
  blockedReason: Type.Optional(Type.String()),
  /** Where its bundle holds more than one version of it: all of them, oldest first (the last is the latest), each with its switch. */
  versions: Type.Optional(Type.Array(Type.Object({ version: VersionSchema, isEnabled: Type.Boolean() }, { additionalProperties: false }), { minItems: 2 })),
};

/** A tool as the API returns it: the file plus usage and computed availability. */
export const ToolViewSchema = Type.Union([
  Type.Object({ ...LocalToolFileSchema.properties, ...viewFields }, { additionalProperties: false }),
  Type.Object({ ...HttpToolFileSchema.properties, ...viewFields }, { additionalProperties: false }),
  Type.Object({ ...AgentToolFileSchema.properties, ...viewFields }, { additionalProperties: false }),
  Type.Object({ ...ScriptToolFileSchema.properties, ...viewFields }, { additionalProperties: false }),
  Type.Object({ ...RecipeToolFileSchema.properties, ...viewFields }, { additionalProperties: false }),
  Type.Object({ ...McpToolSchema.properties, ...viewFields }, { additionalProperties: false }),
]);
export type ToolView = Static<typeof ToolViewSchema>;

/**
 * A tool file that could not be read or validated. What could be salvaged is
 * shown so a person can find and fix it; the file is never touched.
 */
export const InvalidToolEntrySchema = Type.Object(
  {
    status: Type.Literal('invalid'),
    toolID: Type.String(),
    bundleID: Type.String(),
    file: Type.String(),
    invalidReason: Type.String(),
    slug: Type.Optional(Type.String()),
    version: Type.Optional(Type.String()),
    displayName: Type.Optional(Type.String()),
    available: Type.Literal(false),
    unavailableReason: Type.String(),
  },
  { additionalProperties: false },
);
export type InvalidToolEntry = Static<typeof InvalidToolEntrySchema>;

export const ToolEntrySchema = Type.Union([ToolViewSchema, InvalidToolEntrySchema]);
export type ToolEntry = Static<typeof ToolEntrySchema>;
