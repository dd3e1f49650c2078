/** Codes of failures that are results (`ok: false`), not refusals. */
export type InvokeErrorCode =
  | 'missing_input'
  | 'missing_secret'
  /** A template named one of Toolbelt's own secrets (a provider key, a sign-in token), which no tool can use. */
  | 'secret_reserved'
  | 'invalid_request'
  | 'request_too_large'
  | 'host_not_allowed'
  | 'timeout'
  | 'cancelled'
  | 'network'
  | 'http_status'
  | 'rate_limited'
  | 'response_too_large'
  | 'decode_failed'
  | 'extract_failed'
  | 'output_invalid'
  /** The OAuth token endpoint refused the tool's client, or answered with no token. */
  | 'auth_failed'
  /** The tool's API needs a person's OAuth sign-in (authorization code), which is missing or can no longer be renewed. */
  | 'sign_in_required'
  /** A server refuses the access a call needs, after the person signed in for it several times. */
  | 'scope_refused'
  | 'local_error'
  /** The tool itself said the call failed (an MCP result with isError). */
  | 'tool_error'
  /** An MCP server answered the call with a JSON-RPC error (its code is in the message), or lost its session for good. */
  | 'mcp_error'
  /** An MCP server (2026-07-28) asked for the person's input in more rounds than one call may take. */
  | 'mcp_input_rounds'
  /** An MCP task followed again after a restart that its server no longer has. */
  | 'mcp_task_lost'
  /** An agent tool: agents called agents deeper than allowed. */
  | 'agent_depth'
  /** An agent tool: the run it belongs to used up its model requests or tool calls. */
  | 'agent_budget'
  /** An agent tool: its model did not give a final answer within its turns, or its provider failed. */
  | 'agent_failed'
  /** A script tool threw, rejected, or cannot run (its line is in the message). */
  | 'script_error'
  /** A script tool ran past its time limit and was stopped. */
  | 'script_timeout'
  /** A script tool ran out of its memory. */
  | 'script_memory'
  /** A script tool answered with more than its answer may hold. */
  | 'script_output_too_large'
  /** The script sandbox itself stopped during the call. */
  | 'script_crashed'
  /** A recipe's step failed and the step says stop (its reason and the step are in the message). */
  | 'recipe_step_failed'
  /** A recipe's step calls a tool that is not there, or cannot run now. */
  | 'recipe_step_tool_missing'
  /** A recipe's template names a value that is not there (an input not given, a field a result lacks). */
  | 'recipe_missing_value'
  /** A recipe's template or step cannot be read (edited by hand into something else). */
  | 'recipe_invalid'
  /** A recipe's for-each names something that is not a list, or a list longer than its limit. */
  | 'recipe_for_each'
  /** A recipe calls recipes (and scripts, agents) deeper than allowed. */
  | 'recipe_depth';

/**
 * Thrown inside the pipeline, caught once at its edge and turned into
 * `{ ok: false, error }`: every failure of a call is data for the caller
 * (and the model), never a crash.
 */
export class InvokeFailure extends Error {
  constructor(
    readonly code: InvokeErrorCode,
    message: string,
    readonly extra: { status?: number; snippet?: string; host?: string; issues?: { path: string; message: string }[]; answer?: unknown } = {},
  ) {
    super(message);
  }
}
