import { Type } from '@sinclair/typebox';
import { defineOperation } from '../operation.js';
import { ToolNameSchema, UuidV7Schema } from '../schemas/ids.js';
import { ExampleNameSchema, TesterBookSchema } from '../schemas/tester.js';

// A tool across its versions: the tester's history and examples belong to the tool, not one version.
const testerRoute = '/api/tools/bundles/:bundleID/tools/:toolSlug/tester';
const byTool = { bundleID: UuidV7Schema, toolSlug: ToolNameSchema };

export const testerBook = defineOperation({
  name: 'tester.book',
  summary: "A tool's last tester runs (newest first, up to 50, secrets masked) and its saved examples.",
  params: Type.Object(byTool, { additionalProperties: false }),
  result: TesterBookSchema,
  http: { method: 'GET', path: testerRoute },
});

export const testerSaveExample = defineOperation({
  name: 'tester.saveExample',
  summary: 'Keep arguments under a name to run the tool with again (a name in use is replaced).',
  params: Type.Object({ ...byTool, name: ExampleNameSchema, args: Type.Record(Type.String(), Type.Unknown()) }, { additionalProperties: false }),
  result: TesterBookSchema,
  http: { method: 'PUT', path: `${testerRoute}/examples/:name` },
});

export const testerDeleteExample = defineOperation({
  name: 'tester.deleteExample',
  summary: 'Forget a saved example.',
  params: Type.Object({ ...byTool, name: ExampleNameSchema }, { additionalProperties: false }),
  result: TesterBookSchema,
  http: { method: 'DELETE', path: `${testerRoute}/examples/:name` },
});
