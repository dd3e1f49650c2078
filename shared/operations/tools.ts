import { MAX_SCRIPT_CHARS } from '../schemas/script-impl.js';
import { Type } from '@sinclair/typebox';
import { defineOperation } from '../operation.js';
import { SlugSchema, TagSchema, ToolNameSchema, UuidV7Schema, VersionSchema } from '../schemas/ids.js';
import { RequestPreviewSchema } from '../schemas/chat.js';
import { InvokeResultSchema, RecipeResumeSchema } from '../schemas/invocation.js';
import { ToolEntrySchema, ToolPutInputSchema, ToolViewSchema } from '../schemas/tool.js';
import { PageSizeSchema, PageTokenSchema } from './bundles.js';

const ProgressIdSchema = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });

const toolRoute = '/api/tools/bundles/:bundleID/tools/:toolSlug/version/:version';
const toolAddress = { bundleID: UuidV7Schema, toolSlug: ToolNameSchema, version: VersionSchema };

const ToolPage = Type.Object(
  { tools: Type.Array(ToolEntrySchema), nextPageToken: Type.Optional(Type.String()) },
  { additionalProperties: false },
);

export const toolsPut = defineOperation({
  name: 'tools.put',
  summary: 'Create a tool at <slug, version> in a bundle; an existing pair is a conflict.',
  // What people write keeps the stricter slug.
  params: Type.Object({ ...toolAddress, toolSlug: SlugSchema, tool: ToolPutInputSchema }, { additionalProperties: false }),
  result: ToolViewSchema,
  http: { method: 'PUT', path: toolRoute, successStatus: 201, bodyParam: 'tool' },
});

export const toolsPatch = defineOperation({
  name: 'tools.patch',
  summary: 'Switch a tool on or off.',
  params: Type.Object({ ...toolAddress, isEnabled: Type.Boolean() }, { additionalProperties: false }),
  result: ToolEntrySchema,
  http: { method: 'PATCH', path: toolRoute },
});

export const toolsDelete = defineOperation({
  name: 'tools.delete',
  summary: 'Delete a tool file (and its usage metrics).',
  params: Type.Object(toolAddress, { additionalProperties: false }),
  result: Type.Null(),
  http: { method: 'DELETE', path: toolRoute, successStatus: 204 },
});

export const toolsGet = defineOperation({
  name: 'tools.get',
  summary: 'One tool with its usage and availability.',
  params: Type.Object(toolAddress, { additionalProperties: false }),
  result: ToolEntrySchema,
  http: { method: 'GET', path: toolRoute },
});

const CallFiguresSchema = Type.Object(
  {
    calls: Type.Integer({ minimum: 0 }),
    failures: Type.Integer({ minimum: 0 }),
    p50Ms: Type.Optional(Type.Number({ minimum: 0 })),
    p95Ms: Type.Optional(Type.Number({ minimum: 0 })),
  },
  { additionalProperties: false },
);

export const toolsMetrics = defineOperation({
  name: 'tools.metrics',
  summary: "A tool's calls, failures and median and 95th-percentile times over the last day and week (whoever called it; tester drafts not counted).",
  params: Type.Object(toolAddress, { additionalProperties: false }),
  result: Type.Object({ day: CallFiguresSchema, week: CallFiguresSchema }, { additionalProperties: false }),
  http: { method: 'GET', path: `${toolRoute}/metrics` },
});

export const toolsList = defineOperation({
  name: 'tools.list',
  summary: 'Tools by name, filtered by tags (all must match) and bundles.',
  params: Type.Object(
    {
      tags: Type.Optional(Type.Array(TagSchema, { maxItems: 32 })),
      bundleIDs: Type.Optional(Type.Array(UuidV7Schema, { maxItems: 500 })),
      includeDisabled: Type.Optional(Type.Boolean()),
      recommendedPageSize: Type.Optional(PageSizeSchema),
      pageToken: Type.Optional(PageTokenSchema),
    },
    { additionalProperties: false },
  ),
  result: ToolPage,
  http: { method: 'GET', path: '/api/tools/tools' },
});

export const toolsSearch = defineOperation({
  name: 'tools.search',
  summary: 'Ranked search: prefix > whole word > fuzzy, newest first among equals.',
  params: Type.Object(
    {
      q: Type.String({ maxLength: 200 }),
      includeDisabled: Type.Optional(Type.Boolean()),
      pageSize: Type.Optional(PageSizeSchema),
      pageToken: Type.Optional(PageTokenSchema),
    },
    { additionalProperties: false },
  ),
  result: ToolPage,
  http: { method: 'GET', path: '/api/tools/tools/search' },
});

export const toolsInvoke = defineOperation({
  name: 'tools.invoke',
  summary: 'Run a tool. Bad arguments are a 400; every failure after that is data: { ok: false, error }.',
  params: Type.Object(
    {
      ...toolAddress,
      args: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
      trace: Type.Optional(Type.Boolean()),
      timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 600_000 })),
      /** Keep the run in the tool's tester history (tester.book). */
      keepInHistory: Type.Optional(Type.Boolean()),
      /** A recipe: run it again from a step, with the earlier steps' results of the last run. */
      resume: Type.Optional(RecipeResumeSchema),
      /** Report how far the run has got as `tools.progress` events with this ID (the tester's live steps). */
      progressId: Type.Optional(ProgressIdSchema),
    },
    { additionalProperties: false },
  ),
  result: InvokeResultSchema,
  http: { method: 'POST', path: `${toolRoute}/invoke` },
});

const IssueSchema = Type.Object({ path: Type.String(), message: Type.String() }, { additionalProperties: false });

export const toolsValidate = defineOperation({
  name: 'tools.validate',
  summary: 'Check a draft tool as tools.put would, without saving: every problem, with its JSON pointer.',
  params: Type.Object(
    {
      bundleID: Type.Optional(UuidV7Schema),
      toolSlug: Type.Optional(Type.String()),
      version: Type.Optional(Type.String()),
      tool: Type.Unknown(),
    },
    { additionalProperties: false },
  ),
  result: Type.Object({ issues: Type.Array(IssueSchema) }, { additionalProperties: false }),
  http: { method: 'POST', path: '/api/tools/validate' },
});

export const toolsReadScript = defineOperation({
  name: 'tools.readScript',
  summary: "What a script tool's code says of itself, as saving it would read it: its parameters, the argSchema, outputSchema and description its signature gives, and what does not parse (with lines).",
  params: Type.Object(
    { language: Type.Union([Type.Literal('typescript'), Type.Literal('javascript')]), source: Type.String({ maxLength: MAX_SCRIPT_CHARS }) },
    { additionalProperties: false },
  ),
  result: Type.Object(
    {
      parameters: Type.Array(Type.String()),
      argSchema: Type.Record(Type.String(), Type.Unknown()),
      outputSchema: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
      description: Type.Optional(Type.String()),
      problems: Type.Array(Type.Object({ line: Type.Integer({ minimum: 1 }), message: Type.String() }, { additionalProperties: false })),
    },
    { additionalProperties: false },
  ),
  http: { method: 'POST', path: '/api/tools/read-script' },
});

export const toolsCheckArgs = defineOperation({
  name: 'tools.checkArgs',
  summary: "Check arguments against a tool's argSchema without running it: every problem, with its JSON pointer; for valid arguments of an HTTP tool, the request they would send (secrets as •••).",
  params: Type.Object({ ...toolAddress, args: Type.Record(Type.String(), Type.Unknown()) }, { additionalProperties: false }),
  result: Type.Object({ issues: Type.Array(IssueSchema), preview: Type.Optional(RequestPreviewSchema) }, { additionalProperties: false }),
  http: { method: 'POST', path: `${toolRoute}/check-args` },
});

export const toolsTry = defineOperation({
  name: 'tools.try',
  summary: 'Run an unsaved draft in the tester: validated as tools.put would, not stored, not counted.',
  params: Type.Object(
    {
      bundleID: UuidV7Schema,
      tool: Type.Unknown(),
      args: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
      trace: Type.Optional(Type.Boolean()),
      timeoutMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 600_000 })),
      resume: Type.Optional(RecipeResumeSchema),
      progressId: Type.Optional(ProgressIdSchema),
    },
    { additionalProperties: false },
  ),
  result: InvokeResultSchema,
  http: { method: 'POST', path: '/api/tools/bundles/:bundleID/try' },
});
