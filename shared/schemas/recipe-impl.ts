import { Type, type Static } from '@sinclair/typebox';
import { ToolNameSchema, UuidV7Schema, VersionSchema } from './ids.js';

/** Steps one recipe holds. */
export const RECIPE_MAX_STEPS = 50;
/** Items a for-each step takes unless the recipe says otherwise, and the most it may say. */
export const RECIPE_FOR_EACH_DEFAULT = 1_000;
export const RECIPE_FOR_EACH_MOST = 10_000;

/** A step's name, by which later steps refer to its result: `${steps.geocode.result.lat}`. */
export const RecipeStepIdSchema = Type.String({
  pattern: '^[A-Za-z_][A-Za-z0-9_]{0,63}$',
  description: 'Letters, digits and "_", not starting with a digit (1–64 characters)',
  hint: 'Name the step with letters, digits and "_" (it cannot start with a digit).',
});

/**
 * A value a step passes on: JSON in which every string is a template
 * (`${inputs.city}`, `${steps.geocode.result.results[0].lat}`, `${item}`);
 * a string that is one placeholder keeps the JSON type of what it names.
 */
const TemplatedValue = Type.Unknown({ description: 'JSON whose strings may hold ${inputs.NAME}, ${steps.ID.result.PATH}, ${item} and ${index}' });

/** When a step runs: a test of one value (a template), against another where the test compares. */
export const RecipeConditionSchema = Type.Object(
  {
    value: Type.String({ maxLength: 2_000 }),
    is: Type.Union([
      Type.Literal('present'),
      Type.Literal('absent'),
      Type.Literal('true'),
      Type.Literal('false'),
      Type.Literal('equal'),
      Type.Literal('not-equal'),
      Type.Literal('greater'),
      Type.Literal('less'),
      Type.Literal('contains'),
    ]),
    /** What `equal`, `not-equal`, `greater`, `less` and `contains` compare with. */
    to: Type.Optional(TemplatedValue),
  },
  { additionalProperties: false },
);
export type RecipeCondition = Static<typeof RecipeConditionSchema>;

/** What a failed step does: stop the recipe (the default), go on with a fallback result, or try again. */
export const RecipeOnFailureSchema = Type.Union([
  Type.Object({ do: Type.Literal('stop') }, { additionalProperties: false }),
  Type.Object({ do: Type.Literal('fallback'), value: Type.Unknown() }, { additionalProperties: false }),
  Type.Object({ do: Type.Literal('retry'), times: Type.Integer({ minimum: 1, maximum: 5, hint: 'Retry from 1 to 5 times.' }) }, { additionalProperties: false }),
]);
export type RecipeOnFailure = Static<typeof RecipeOnFailureSchema>;

/** The tool a step calls: its latest version unless one is named. */
export const RecipeToolRefSchema = Type.Object(
  { bundleID: UuidV7Schema, slug: ToolNameSchema, version: Type.Optional(VersionSchema) },
  { additionalProperties: false },
);
export type RecipeToolRef = Static<typeof RecipeToolRefSchema>;

export const RecipeStepSchema = Type.Object(
  {
    id: RecipeStepIdSchema,
    tool: RecipeToolRefSchema,
    args: Type.Record(Type.String({ maxLength: 200 }), TemplatedValue),
    when: Type.Optional(RecipeConditionSchema),
    /** A template naming a list: the step runs once per item (`${item}`, `${index}`), and its result is the list of their results. */
    forEach: Type.Optional(Type.String({ minLength: 1, maxLength: 2_000 })),
    onFailure: Type.Optional(RecipeOnFailureSchema),
  },
  { additionalProperties: false },
);
export type RecipeStep = Static<typeof RecipeStepSchema>;

/**
 * A recipe tool: steps that each call one tool, with arguments taken from
 * the recipe's inputs (its argSchema), earlier steps' results and fixed
 * values; its result is `output`, made the same way.
 */
export const RecipeImplSchema = Type.Object(
  {
    steps: Type.Array(RecipeStepSchema, { minItems: 1, maxItems: RECIPE_MAX_STEPS, hint: 'Add at least one step.' }),
    output: TemplatedValue,
    limits: Type.Optional(
      Type.Object(
        { forEachMax: Type.Optional(Type.Integer({ minimum: 1, maximum: RECIPE_FOR_EACH_MOST, hint: `Use a whole number from 1 to ${RECIPE_FOR_EACH_MOST}.` })) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type RecipeImpl = Static<typeof RecipeImplSchema>;
