import { IssuerMismatchError, UnauthorizedError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { ToolbeltError } from '../../shared/errors.js';
import { ClientConfigIncomplete } from './machine-client.js';
import type { McpServerConfig } from '../../shared/schemas/mcp.js';

/** How long a server has to answer the handshake and its first tools/list. */
export const CONNECT_TIMEOUT_MS = 30_000;

/** Why a server could not start, with a stable code and what to do. */
export interface ConnectionFailure {
  code:
    | 'mcp_command_missing'
    | 'mcp_missing_secret'
    | 'secret_reserved'
    | 'mcp_start_failed'
    | 'mcp_no_answer'
    | 'mcp_bad_list'
    | 'mcp_exited'
    | 'mcp_unreachable'
    | 'mcp_auth_required'
    | 'mcp_auth_failed'
    | 'mcp_auth_wrong_issuer'
    | 'mcp_client_required'
    | 'mcp_scope_refused';
  message: string;
}

/** Sign-ins in a row (no call went through between them) after which a server that still refuses is not asked again. */
export const MAX_SIGN_INS = 3;

/** A server that keeps refusing the access it asks for: no sign-in is offered again. */
export function scopeRefused(name: string, signIns: number): ConnectionFailure {
  const after = signIns >= MAX_SIGN_INS ? `after ${signIns} sign-ins in a row` : 'even with a sign-in that asked for it';
  return {
    code: 'mcp_scope_refused',
    message: `The MCP server ${name} still refuses the access this needs ${after}: its sign-in server does not grant it to you. Ask the server's administrator for that access; Restart signs in once more.`,
  };
}

/** A call that needs the person first: a sign-in with wider access (step-up), or access the server will not give. */
export class CallNeedsSignIn extends Error {
  constructor(
    readonly code: 'sign_in_required' | 'scope_refused',
    message: string,
  ) {
    super(message);
  }
}

/** A server that answered the handshake but not tools/list in time. */
export class ToolListUnanswered extends Error {
  readonly reason: string;
  constructor(cause: unknown) {
    super('tools/list was not answered', { cause });
    this.reason = cause instanceof Error ? cause.message : String(cause);
  }
}

/** What the sentence of a failed start may name. */
export interface StartingServer {
  name: string;
  config: McpServerConfig;
  /** A sign-in page waits for the person. */
  signingIn: boolean;
  /** Its last stderr lines (stdio servers). */
  stderr: readonly string[];
  connectTimeoutMs: number;
}

/** A start that failed, as the server's panel says it: the code, and a sentence with what to do. */
export function startFailure(error: unknown, server: StartingServer): ConnectionFailure {
  if (error instanceof ToolbeltError) return { code: error.code === 'secret_reserved' ? 'secret_reserved' : 'mcp_missing_secret', message: error.message };
  if (error instanceof ClientConfigIncomplete) return { code: 'mcp_client_required', message: error.message };
  const code = (error as NodeJS.ErrnoException).code;
  if ('command' in server.config && code === 'ENOENT') {
    return {
      code: 'mcp_command_missing',
      message: `The command "${server.config.command}" was not found, neither on Toolbelt's PATH nor on your login shell's. Install it, or give its full path as the server's command.`,
    };
  }
  if (error instanceof UnauthorizedError && server.signingIn) {
    return { code: 'mcp_auth_required', message: `The MCP server ${server.name} asks you to sign in. Select Sign in: its sign-in page opens in your browser, and Toolbelt connects once you are signed in.` };
  }
  // Asked to sign in at tools/list (a server that lets anyone through the handshake): the same as at the handshake.
  if (error instanceof ToolListUnanswered && error.cause instanceof UnauthorizedError && server.signingIn) return startFailure(error.cause, server);
  if (error instanceof ToolListUnanswered && error.cause instanceof SdkError && error.cause.code === SdkErrorCode.InvalidResult) {
    const why = invalidParts(error.reason);
    return { code: 'mcp_bad_list', message: `The MCP server ${server.name} answered with a list of tools that breaks the MCP schema (${why}), so none of its tools can be used. Tell the server's author; Restart once it is fixed.` };
  }
  if (error instanceof ToolListUnanswered) {
    const seconds = Math.round(server.connectTimeoutMs / 1000);
    return { code: 'mcp_no_answer', message: `The MCP server ${server.name} connected but did not give its list of tools within ${seconds} s (${error.reason}). Restart it; if it keeps happening, the server is stuck.` };
  }
  const said = error instanceof Error ? error.message : String(error);
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
    const seconds = Math.round(server.connectTimeoutMs / 1000);
    const tail = server.stderr.length ? ` It wrote: ${server.stderr.slice(-3).join(' / ')}` : '';
    return {
      code: 'mcp_no_answer',
      message: `The MCP server ${server.name} did not answer the MCP handshake within ${seconds} s. Check that the command starts an MCP server (not a program that waits for input), then Restart.${tail}`,
    };
  }
  if ('url' in server.config && /dynamic client registration/i.test(said) && !server.config.oauth) {
    return {
      code: 'mcp_client_required',
      message: `The sign-in server of ${server.name} does not let apps register themselves. Register Toolbelt there as an app with the redirect http://127.0.0.1/callback (any port), then add its client ID to this server's config: "oauth": { "clientId": "…", "clientSecret": "\${secret.NAME}" } (the secret only if it gave one).`,
    };
  }
  if ('url' in server.config) return { code: 'mcp_unreachable', message: `The MCP server at ${server.config.url} could not be reached: ${said}` };
  const tail = server.stderr.length ? ` It wrote: ${server.stderr.slice(-3).join(' / ')}` : '';
  return { code: 'mcp_start_failed', message: `The MCP server ${server.name} did not start: ${said}.${tail}` };
}

/** A sign-in that did not finish, said like a failed start, so Restart (or Sign in again) is the way on. */
export function signInFailure(server: string, error: unknown): ConnectionFailure {
  const reason = error instanceof Error ? error.message : String(error);
  // RFC 9207: the answer named another authorization server than the one signed in with, a sign of a mix-up attack.
  if (error instanceof IssuerMismatchError && error.kind === 'authorization_response') {
    return {
      code: 'mcp_auth_wrong_issuer',
      message: `Signing in to the MCP server ${server} was stopped: the answer came from another sign-in server than the one Toolbelt opened (${reason}). Nothing was sent to it. Select Restart to sign in again; if it happens again, do not sign in there.`,
    };
  }
  return { code: 'mcp_auth_failed', message: `Signing in to the MCP server ${server} failed: ${reason}. Select Restart to sign in again.` };
}

/** The SDK's "Invalid result for tools/list: [issues as JSON]" said as "ttlMs: Too small: …", at most three parts. */
function invalidParts(reason: string): string {
  try {
    const issues = JSON.parse(reason.slice(reason.indexOf('['))) as { path?: unknown[]; message?: unknown }[];
    return issues
      .slice(0, 3)
      .map((issue) => `${(issue.path ?? []).map(String).join('.') || 'the answer'}: ${String(issue.message)}`)
      .join('; ');
  } catch {
    return reason.slice(0, 300);
  }
}
