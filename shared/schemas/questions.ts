import { Type, type Static } from '@sinclair/typebox';
import { UuidV7Schema } from './ids.js';

/**
 * Who asks: an MCP server Toolbelt uses (elicitation), an MCP client using Toolbelt's tools, an agent tool (approval
 * of a call it makes), or an MCP App (a call to its server's tools, made from its frame in a chat or the tester).
 */
export const QuestionAskerSchema = Type.Union([
  Type.Object({ kind: Type.Literal('mcp-server'), server: Type.String({ maxLength: 64 }) }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('mcp-client'), client: Type.String({ maxLength: 200 }) }, { additionalProperties: false }),
  /** The agents the call is made inside, outermost first ("Research agent", then an agent it called). */
  Type.Object({ kind: Type.Literal('agent'), path: Type.Array(Type.String({ maxLength: 200 }), { minItems: 1, maxItems: 3 }) }, { additionalProperties: false }),
  /** A script tool's `tools.call`: the scripts and agents the call is made inside, outermost first. */
  Type.Object({ kind: Type.Literal('script'), path: Type.Array(Type.String({ maxLength: 200 }), { minItems: 1, maxItems: 4 }) }, { additionalProperties: false }),
  /** A recipe's step: the recipes, scripts and agents the call is made inside, outermost first ("Trip weather"). */
  Type.Object({ kind: Type.Literal('recipe'), path: Type.Array(Type.String({ maxLength: 200 }), { minItems: 1, maxItems: 4 }) }, { additionalProperties: false }),
  /** `app` is the tool whose app it is (its display name), `server` the MCP server both come from. */
  Type.Object({ kind: Type.Literal('mcp-app'), server: Type.String({ maxLength: 64 }), app: Type.String({ maxLength: 200 }) }, { additionalProperties: false }),
]);

/** An MCP client or an agent wants to run a tool that asks first: the approval dialog shows this, and accept means "allow once". */
export const ApprovalRequestSchema = Type.Object(
  {
    bundleID: UuidV7Schema,
    slug: Type.String(),
    version: Type.String(),
    displayName: Type.String(),
    /** The arguments as the client sent them. */
    args: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: false },
);

/**
 * A question a running tool asks the person now, while it waits (MCP
 * elicitation). Unlike the chat's ask-user call it is not kept on disk: the
 * one asking holds the request open, and a restart ends it.
 */
export const LiveQuestionSchema = Type.Object(
  {
    id: UuidV7Schema,
    from: QuestionAskerSchema,
    message: Type.String(),
    /** A flat object schema of strings, numbers, booleans and enums, as MCP elicitation allows. */
    schema: Type.Record(Type.String(), Type.Unknown()),
    /** Set when the question is "may this tool run?" rather than a form. */
    approval: Type.Optional(ApprovalRequestSchema),
    askedAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);
export type LiveQuestion = Static<typeof LiveQuestionSchema>;

/** accept with the filled form, decline (no), or cancel (dismissed without saying). */
export const LiveAnswerSchema = Type.Union([
  Type.Object({ action: Type.Literal('accept'), content: Type.Record(Type.String(), Type.Unknown(), { maxProperties: 100 }) }, { additionalProperties: false }),
  Type.Object({ action: Type.Union([Type.Literal('decline'), Type.Literal('cancel')]) }, { additionalProperties: false }),
]);
export type LiveAnswer = Static<typeof LiveAnswerSchema>;
