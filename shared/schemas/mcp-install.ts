import { Type, type Static } from '@sinclair/typebox';
import { McpServerConfigSchema, McpServerNameSchema } from './mcp.js';

/**
 * What Toolbelt shows before it adds an MCP server from somewhere else (an
 * MCP bundle, a registry entry, a link): the exact command or address it
 * would use, the names (never the values) of the environment variables and
 * headers it would set, and the hosts it would reach.
 */
export const InstallPlanSchema = Type.Object(
  {
    serverName: McpServerNameSchema,
    config: McpServerConfigSchema,
    /** Environment variable or header names the server is given (values stay in the config or the person's secrets). */
    settingNames: Type.Array(Type.String()),
    /** Hosts a remote server is reached at. */
    hosts: Type.Array(Type.String()),
    /** Secrets the person is asked for, which Toolbelt keeps in Settings → Secrets. */
    secrets: Type.Array(Type.String()),
    /** An existing server of that name this replaces (an update), or absent for a new one. */
    replaces: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type InstallPlan = Static<typeof InstallPlanSchema>;

/** A field of an MCP bundle's `user_config`, as its form shows it. */
export const McpbConfigFieldSchema = Type.Object(
  {
    key: Type.String(),
    type: Type.Union([Type.Literal('string'), Type.Literal('number'), Type.Literal('boolean'), Type.Literal('directory'), Type.Literal('file')]),
    title: Type.String(),
    description: Type.String(),
    required: Type.Boolean(),
    /** Kept as one of the person's secrets, never in a file in the clear. */
    sensitive: Type.Boolean(),
    multiple: Type.Boolean(),
    /** The manifest's default (never for a sensitive field), `${HOME}` and the like resolved. */
    default: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Array(Type.String())])),
    min: Type.Optional(Type.Number()),
    max: Type.Optional(Type.Number()),
  },
  { additionalProperties: false },
);
export type McpbConfigField = Static<typeof McpbConfigFieldSchema>;

/** Something about a bundle the person should know; an `error` one stops the install. */
export const InstallProblemSchema = Type.Object(
  {
    level: Type.Union([Type.Literal('error'), Type.Literal('warning')]),
    code: Type.String(),
    message: Type.String(),
  },
  { additionalProperties: false },
);
export type InstallProblem = Static<typeof InstallProblemSchema>;

export const McpbSignatureSchema = Type.Object(
  {
    /**
     * `signed`: it verifies, by a certificate a trusted authority vouches for; `self-signed` and `untrusted`: it verifies,
     * by a certificate that vouches for itself or that nobody trusted vouches for; `mismatch`: it does not verify.
     */
    status: Type.Union([Type.Literal('signed'), Type.Literal('self-signed'), Type.Literal('untrusted'), Type.Literal('unsigned'), Type.Literal('mismatch')]),
    publisher: Type.Optional(Type.String()),
    issuer: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

const NamedItems = Type.Array(Type.Object({ name: Type.String(), description: Type.Optional(Type.String()) }, { additionalProperties: false }));

export const McpbPreviewSchema = Type.Object(
  {
    previewId: Type.String(),
    manifest: Type.Object(
      {
        name: Type.String(),
        displayName: Type.String(),
        version: Type.String(),
        description: Type.String(),
        author: Type.Object({ name: Type.String(), email: Type.Optional(Type.String()), url: Type.Optional(Type.String()) }, { additionalProperties: false }),
        manifestVersion: Type.String(),
        serverType: Type.String(),
        homepage: Type.Optional(Type.String()),
        repository: Type.Optional(Type.String()),
        license: Type.Optional(Type.String()),
        tools: NamedItems,
        toolsGenerated: Type.Boolean(),
        prompts: NamedItems,
        platforms: Type.Array(Type.String()),
        runtimes: Type.Record(Type.String(), Type.String()),
      },
      { additionalProperties: false },
    ),
    signature: McpbSignatureSchema,
    userConfig: Type.Array(McpbConfigFieldSchema),
    /** The server it would add, as it would run with the defaults (sensitive values as `${secret.NAME}`). */
    plan: InstallPlanSchema,
    problems: Type.Array(InstallProblemSchema),
    /** False when a problem stops the install. */
    installable: Type.Boolean(),
    files: Type.Integer({ minimum: 0 }),
    unpackedBytes: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type McpbPreview = Static<typeof McpbPreviewSchema>;

export const McpbUserConfigSchema = Type.Record(
  Type.String({ maxLength: 200 }),
  Type.Union([Type.String({ maxLength: 8_192 }), Type.Number(), Type.Boolean(), Type.Array(Type.String({ maxLength: 8_192 }), { maxItems: 100 })]),
  { maxProperties: 100 },
);

/** An MCP server Toolbelt installed from a bundle: where its files are, so an update replaces them and an uninstall removes them. */
export const McpbInstallSchema = Type.Object(
  {
    serverName: McpServerNameSchema,
    bundleName: Type.String(),
    version: Type.String(),
    folder: Type.String(),
    installedAt: Type.String(),
    secrets: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);
export type McpbInstall = Static<typeof McpbInstallSchema>;

/** The official MCP Registry, searched unless the person picks another. */
export const OFFICIAL_MCP_REGISTRY = 'https://registry.modelcontextprotocol.io';

/** A value a registry entry asks the person for: an environment variable, a header, an argument or a URL variable. */
export const RegistryInputSchema = Type.Object(
  {
    /** `env:NAME`, `header:NAME`, `arg:NAME` or `url:NAME`. */
    key: Type.String(),
    label: Type.String(),
    description: Type.Optional(Type.String()),
    required: Type.Boolean(),
    secret: Type.Boolean(),
    default: Type.Optional(Type.String()),
    placeholder: Type.Optional(Type.String()),
    choices: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);
export type RegistryInput = Static<typeof RegistryInputSchema>;

/** One way to run an entry: a remote to connect to, or a package to run as a command. */
export const RegistryChoiceSchema = Type.Object(
  {
    /** `remote:N` or `package:N`, N its place in the entry. */
    id: Type.String(),
    kind: Type.Union([Type.Literal('remote'), Type.Literal('package')]),
    /** `streamable-http`, `sse`, or the package's registry (`npm`, `pypi`, `oci`, …). */
    type: Type.String(),
    /** The URL, or the package's identifier and version. */
    label: Type.String(),
    /** Why Toolbelt cannot run it (a registry type it does not know, a transport other than stdio), when it cannot. */
    unsupported: Type.Optional(Type.String()),
    inputs: Type.Array(RegistryInputSchema),
  },
  { additionalProperties: false },
);
export type RegistryChoice = Static<typeof RegistryChoiceSchema>;

export const RegistryEntrySchema = Type.Object(
  {
    name: Type.String(),
    title: Type.Optional(Type.String()),
    description: Type.String(),
    version: Type.String(),
    /** `active`, `deprecated` or `deleted`, as the registry says. */
    status: Type.Optional(Type.String()),
    statusMessage: Type.Optional(Type.String()),
    repository: Type.Optional(Type.String()),
    websiteUrl: Type.Optional(Type.String()),
    publishedAt: Type.Optional(Type.String()),
    choices: Type.Array(RegistryChoiceSchema),
  },
  { additionalProperties: false },
);
export type RegistryEntry = Static<typeof RegistryEntrySchema>;

export const RegistryPageSchema = Type.Object(
  {
    registry: Type.String(),
    servers: Type.Array(RegistryEntrySchema),
    nextCursor: Type.Optional(Type.String()),
    /** Answered from what Toolbelt kept of an earlier answer. */
    cached: Type.Boolean(),
    /** The registry could not be reached: this is what was kept from before. */
    offline: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type RegistryPage = Static<typeof RegistryPageSchema>;

export const RegistryInstallParamsSchema = Type.Object(
  {
    registry: Type.Optional(Type.String({ maxLength: 2_000 })),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    version: Type.String({ minLength: 1, maxLength: 255 }),
    choice: Type.String({ pattern: '^(remote|package):[0-9]{1,3}$' }),
    values: Type.Optional(Type.Record(Type.String({ maxLength: 300 }), Type.String({ maxLength: 8_192 }), { maxProperties: 100 })),
    serverName: Type.Optional(McpServerNameSchema),
  },
  { additionalProperties: false },
);

export const LinkPreviewSchema = Type.Union([
  Type.Object({ kind: Type.Literal('mcp-install'), plans: Type.Array(InstallPlanSchema) }, { additionalProperties: false }),
  Type.Object({ kind: Type.Literal('chat-new'), text: Type.String() }, { additionalProperties: false }),
]);
