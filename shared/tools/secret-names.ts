/**
 * Names Toolbelt keeps for its own secrets: a provider's API key
 * (`PROVIDER_<ID>_API_KEY`), an HTTP tool's OAuth tokens (`OAUTH_TOKEN_<hash>`)
 * and anything it may keep later under `TOOLBELT_`. The person cannot set a
 * secret by such a name, and no tool, import or MCP server config can read one.
 */
const TOOLBELT_SECRET_NAME = /^(?:PROVIDER_.*_API_KEY|OAUTH_TOKEN_.*|TOOLBELT_.*)$/i;

export function isToolbeltSecretName(name: string): boolean {
  return TOOLBELT_SECRET_NAME.test(name);
}

/**
 * Environment variables Toolbelt reads its providers' keys from: as much
 * Toolbelt's own as its secrets, so no MCP server config can name them.
 */
const TOOLBELT_ENVIRONMENT_NAME = /^(?:OPENAI_API_KEY|ANTHROPIC_API_KEY|GEMINI_API_KEY|TOOLBELT_.*)$/i;

export function isToolbeltEnvironmentName(name: string): boolean {
  return TOOLBELT_ENVIRONMENT_NAME.test(name);
}
