import { Type, type Static } from '@sinclair/typebox';

/**
 * Every error a user can hit crosses the boundary with one of these codes.
 * Codes are stable API: the renderer and scripts branch on them, so never
 * rename one; add a new code instead.
 */
export const ERROR_HTTP_STATUS = {
  invalid_params: 400,
  invalid_args: 400,
  unauthorized: 401,
  forbidden: 403,
  builtin_immutable: 403,
  source_readonly: 403,
  not_found: 404,
  unknown_operation: 404,
  method_not_allowed: 405,
  conflict: 409,
  bundle_disabled: 409,
  file_invalid: 409,
  tool_disabled: 409,
  tool_unavailable: 409,
  chat_busy: 409,
  port_in_use: 409,
  tools_unsupported: 422,
  // A model server that refused the pictures of a message (a model that sees none): it is not sent them again.
  pictures_unsupported: 422,
  provider_rate_limited: 429,
  provider_auth: 502,
  provider_unreachable: 502,
  provider_error: 502,
  mcp_error: 502,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unavailable: 503,
  storage_failed: 507,
  regex_unsupported: 400,
  import_invalid: 422,
  import_unreachable: 502,
  import_preview_gone: 410,
  // An MCP bundle (.mcpb) that cannot be installed: unreadable, unsafe, not for this system, or its signature does not match.
  mcpb_invalid: 422,
  mcpb_unsupported: 422,
  mcpb_signature_mismatch: 422,
  // A bundle, registry entry or link that names one of the person's secrets or environment values it was not given.
  install_names_secret: 403,
  // An MCP registry that cannot be reached, or answers what its API does not.
  registry_unreachable: 502,
  registry_invalid: 502,
  link_invalid: 400,
  host_not_allowed: 403,
  missing_secret: 409,
  secret_reserved: 403,
  // The person's own hook refused it (a UserPromptSubmit hook stopped a message).
  hook_denied: 403,
  recipe_cycle: 422,
  schema_too_large: 422,
  cancelled: 499,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_HTTP_STATUS;

export const ErrorBodySchema = Type.Object(
  {
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      details: Type.Optional(Type.Unknown()),
    }),
  },
  { $id: 'ErrorBody', additionalProperties: false },
);
export type ErrorBody = Static<typeof ErrorBodySchema>;

/** One problem found while validating a payload: where it is and what is wrong. */
export interface ValidationIssue {
  path: string;
  message: string;
}

/**
 * The one error type services throw. Anything else that escapes a service is
 * a bug and is reported to the user as `internal` without its message, so
 * that stack traces and secrets never leak across the boundary.
 */
export class ToolbeltError extends Error {
  override readonly name = 'ToolbeltError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }

  get httpStatus(): number {
    return ERROR_HTTP_STATUS[this.code];
  }

  toBody(): ErrorBody {
    const error: ErrorBody['error'] = { code: this.code, message: this.message };
    if (this.details !== undefined) error.details = this.details;
    return { error };
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.hasOwn(ERROR_HTTP_STATUS, value);
}

/** Rebuilds a ToolbeltError from a body that crossed IPC or HTTP. */
export function errorFromBody(body: unknown, fallbackMessage: string): ToolbeltError {
  if (typeof body === 'object' && body !== null && 'error' in body) {
    const { error } = body as { error: { code?: unknown; message?: unknown; details?: unknown } };
    if (error && isErrorCode(error.code)) {
      const message = typeof error.message === 'string' ? error.message : fallbackMessage;
      return new ToolbeltError(error.code, message, error.details);
    }
  }
  return new ToolbeltError('internal', fallbackMessage);
}
