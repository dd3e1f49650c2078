import { Type } from '@sinclair/typebox';
import { defineOperation } from '../operation.js';
import { ToolNameSchema, UuidV7Schema, VersionSchema } from '../schemas/ids.js';
import { SignInViewSchema } from '../schemas/oauth.js';

/** The bundle whose connection signs in, or one tool of it that has its own. */
const signInTarget = {
  bundleID: UuidV7Schema,
  toolSlug: Type.Optional(ToolNameSchema),
  version: Type.Optional(VersionSchema),
};
const params = Type.Object(signInTarget, { additionalProperties: false });
const path = '/api/tools/bundles/:bundleID/sign-in';

/** The three steps of a browser sign-in share their target, answer and route; only the verb differs. */
const signInOperation = <N extends string, M extends 'GET' | 'POST' | 'DELETE'>(name: N, method: M, summary: string) =>
  defineOperation({ name, summary, params, result: SignInViewSchema, http: { method, path } });

export const oauthState = signInOperation('oauth.state', 'GET', 'Whether a person is signed in to a connection that uses OAuth 2 in the browser (authorization code), and until when.');
export const oauthSignIn = signInOperation(
  'oauth.signIn',
  'POST',
  'Start a browser sign-in (authorization code with PKCE): the page to open; the tokens are kept once the browser comes back to Toolbelt.',
);
export const oauthSignOut = signInOperation('oauth.signOut', 'DELETE', 'Forget the tokens of a browser sign-in; the connection’s tools ask for a sign-in again.');
