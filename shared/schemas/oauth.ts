import { Type, type Static } from '@sinclair/typebox';

/**
 * A person's OAuth 2 sign-in for a bundle's (or a tool's) connection:
 * signed out; waiting for the browser to come back; signed in (until the
 * access token runs out, renewed without them when refreshable); or failed.
 */
export const SignInViewSchema = Type.Object(
  {
    state: Type.Union([Type.Literal('signed-out'), Type.Literal('waiting'), Type.Literal('signed-in'), Type.Literal('failed')]),
    /** While waiting: the page to open in the browser. */
    authorizationUrl: Type.Optional(Type.String()),
    /** Where the provider sends the browser back: what to register with it. */
    redirectUri: Type.Optional(Type.String()),
    expiresAt: Type.Optional(Type.String({ format: 'date-time' })),
    refreshable: Type.Optional(Type.Boolean()),
    error: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);
export type SignInView = Static<typeof SignInViewSchema>;
