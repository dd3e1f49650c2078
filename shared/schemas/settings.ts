import { Type, type Static } from '@sinclair/typebox';
import { SECRET_NAME_PATTERN } from '../tools/templates.js';
import { ToolDiscoverySchema } from './chat.js';
import { HooksSchema } from './hooks.js';

/**
 * An allowed host: an exact name (`api.example.com`), a name with a port
 * (`localhost:8080`), a wildcard for subdomains (`*.example.com`), or an IP
 * address (`127.0.0.1:8080`, `[::1]:8080`).
 */
export const AllowedHostSchema = Type.String({
  pattern: '^(?:(?:\\*\\.)?[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\\[[0-9a-f:.]+\\])(?::[0-9]{1,5})?$',
  maxLength: 260,
  description: 'host, host:port, *.example.com, or an IP address; lower case',
  hint: 'Use a host name in lower case, optionally with :port or a leading *. (api.example.com, 127.0.0.1:8080, *.example.com).',
});

export const ThemeSchema = Type.Union([Type.Literal('system'), Type.Literal('light'), Type.Literal('dark')]);

export const SettingsSchema = Type.Object(
  {
    allowedHosts: Type.Array(AllowedHostSchema, { uniqueItems: true, maxItems: 1000 }),
    readableFolders: Type.Array(Type.String({ minLength: 1, maxLength: 4096 }), { uniqueItems: true, maxItems: 100 }),
    theme: ThemeSchema,
    /** How new chats and chats that do not say offer their tools (default `auto`). */
    toolDiscovery: Type.Optional(ToolDiscoverySchema),
    /** Hooks before and after every tool call, in Claude Code's shape (`hooks` of `.claude/settings.json`). */
    hooks: Type.Optional(HooksSchema),
    /** Where each tool call goes as an OpenTelemetry span (OTLP/HTTP, JSON), e.g. `http://localhost:4318/v1/traces`; empty: nowhere. */
    otlpTracesUrl: Type.Optional(Type.String({ pattern: '^(?:https?://[^\\s]+)?$', maxLength: 2_000 })),
    /** MCP registries searched besides the official one (a company's own), by their base URL. */
    mcpRegistries: Type.Optional(Type.Array(Type.String({ pattern: '^https?://[^\\s?#]+$', maxLength: 2_000 }), { uniqueItems: true, maxItems: 20 })),
  },
  { additionalProperties: false, $id: 'Settings' },
);
export type Settings = Static<typeof SettingsSchema>;

export const SettingsPatchSchema = Type.Partial(SettingsSchema, { additionalProperties: false });
export type SettingsPatch = Static<typeof SettingsPatchSchema>;

export const SecretNameSchema = Type.String({
  pattern: SECRET_NAME_PATTERN,
  description: 'Letters, digits and "_", not starting with a digit',
  hint: 'Use letters, digits and _ only, starting with a letter or _ (up to 128 characters).',
});
