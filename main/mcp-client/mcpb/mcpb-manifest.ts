import os from 'node:os';
import path from 'node:path';
import { getMcpConfigForManifest, replaceVariables, vAny } from '@anthropic-ai/mcpb/node';
import type { McpbManifestAny } from '@anthropic-ai/mcpb';
import { ToolbeltError } from '../../../shared/errors.js';
import type { McpbConfigField, InstallProblem } from '../../../shared/schemas/mcp-install.js';
import type { McpServerConfig } from '../../../shared/schemas/mcp.js';
import { mcpbRefused } from './mcpb-archive.js';
import { installSecretName } from '../install-plan.js';

export type McpbManifest = McpbManifestAny;
type UserConfigValue = string | number | boolean | string[];

/** A `user_config` key: it becomes part of a placeholder, a regular expression in the SDK and a secret's name. */
const CONFIG_KEY = /^[A-Za-z0-9_-]{1,64}$/;

/** The manifest, checked against the official package's schema (every manifest version it knows). */
export function parseManifest(json: unknown): McpbManifest {
  const parsed = vAny.McpbManifestSchema.safeParse(json);
  if (!parsed.success) {
    const said = parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.') || 'manifest'}: ${issue.message}`);
    throw mcpbRefused(`its manifest.json does not follow the MCP bundle format (${said.join('; ')}).`);
  }
  const manifest = parsed.data;
  for (const key of Object.keys(manifest.user_config ?? {})) {
    if (!CONFIG_KEY.test(key)) throw mcpbRefused(`its setting ${JSON.stringify(key.slice(0, 80))} has a name other than letters, digits, _ and -.`);
  }
  return manifest;
}

/** The folders the spec lets a manifest name (`${HOME}`, `${DOCUMENTS}`, …). */
export function systemFolders(home = os.homedir()): Record<string, string> {
  return { HOME: home, DESKTOP: path.join(home, 'Desktop'), DOCUMENTS: path.join(home, 'Documents'), DOWNLOADS: path.join(home, 'Downloads') };
}

export function configFields(manifest: McpbManifest, folders: Record<string, string>): McpbConfigField[] {
  return Object.entries(manifest.user_config ?? {}).map(([key, option]) => ({
    key,
    type: option.type,
    title: option.title,
    description: option.description,
    required: option.required ?? false,
    sensitive: option.sensitive ?? false,
    multiple: option.multiple ?? false,
    ...(option.default !== undefined && !option.sensitive ? { default: replaceVariables(option.default, folders) as UserConfigValue } : {}),
    ...(option.min !== undefined ? { min: option.min } : {}),
    ...(option.max !== undefined ? { max: option.max } : {}),
  }));
}

/** The secret a sensitive setting of a bundle is kept in. */
export const secretNameFor = (bundleName: string, key: string) => installSecretName('MCPB', bundleName, key);

const invalid = (field: McpbConfigField, why: string) => new ToolbeltError('invalid_params', `${field.title}: ${why}`, { field: field.key });

/** One setting's value as the person gave it, checked against its field; undefined when not given. */
function checkedValue(field: McpbConfigField, given: unknown, preview: boolean): UserConfigValue | undefined {
  if (given === undefined || given === '' || (Array.isArray(given) && given.length === 0)) {
    if (field.required && !preview) throw invalid(field, 'this setting is required.');
    return undefined;
  }
  const values = Array.isArray(given) ? given : [given];
  if (Array.isArray(given) && !field.multiple) throw invalid(field, 'takes one value.');
  for (const value of values) {
    if (field.type === 'number') {
      if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(field, 'takes a number.');
      if ((field.min !== undefined && value < field.min) || (field.max !== undefined && value > field.max)) throw invalid(field, `takes a number from ${field.min ?? '−∞'} to ${field.max ?? '∞'}.`);
    } else if (field.type === 'boolean') {
      if (typeof value !== 'boolean') throw invalid(field, 'takes yes or no.');
    } else {
      if (typeof value !== 'string') throw invalid(field, 'takes text.');
      if ((field.type === 'directory' || field.type === 'file') && !path.isAbsolute(value)) throw invalid(field, 'takes a full path.');
    }
  }
  return given as UserConfigValue;
}

export interface ResolvedServer {
  config: Extract<McpServerConfig, { command: string }>;
  /** Sensitive values to keep as the person's secrets, by secret name. */
  secrets: Map<string, string>;
}

/**
 * The server a bundle runs, as the spec resolves it: the platform's
 * override, `${__dirname}` as its folder, `${user_config.X}` from the
 * person's values and the manifest's defaults, the system folders. Sensitive
 * values stay out of it: it names them as `${secret.NAME}`.
 */
export async function resolveServer(
  manifest: McpbManifest,
  folder: string,
  given: Record<string, unknown>,
  folders: Record<string, string>,
  { preview = false } = {},
): Promise<ResolvedServer> {
  const secrets = new Map<string, string>();
  const values: Record<string, UserConfigValue> = {};
  const fields = configFields(manifest, folders);
  for (const field of fields) {
    const value = checkedValue(field, given[field.key], preview) ?? field.default;
    if (preview && field.sensitive) {
      // Before the person types it, the plan already shows where a sensitive value will go.
      const name = secretNameFor(manifest.name, field.key);
      secrets.set(name, '');
      values[field.key] = `\${secret.${name}}`;
      continue;
    }
    // A required setting not given yet stays a placeholder in the preview's plan.
    if (value === undefined && preview && field.required) values[field.key] = `\${user_config.${field.key}}`;
    if (value === undefined) continue;
    if (field.sensitive) {
      const name = secretNameFor(manifest.name, field.key);
      secrets.set(name, Array.isArray(value) ? value.join(',') : String(value));
      values[field.key] = `\${secret.${name}}`;
    } else {
      values[field.key] = typeof value === 'string' ? (replaceVariables(value, folders) as string) : value;
    }
  }
  // Optional settings left empty resolve to nothing (the SDK leaves their placeholders as they are).
  const unset = Object.fromEntries(fields.filter((field) => !(field.key in values)).map((field) => [field.key, '']));
  const resolved = await getMcpConfigForManifest({ manifest, extensionPath: folder, systemDirs: folders, userConfig: { ...unset, ...values }, pathSeparator: path.sep });
  if (!resolved) throw new ToolbeltError('invalid_params', 'A required setting of this bundle is not given.');
  const args = (resolved.args ?? []).filter((arg) => arg !== '');
  const env = resolved.env && Object.keys(resolved.env).length ? { env: resolved.env } : {};
  return { config: { command: resolved.command, ...(args.length ? { args } : {}), ...env, cwd: folder }, secrets };
}

/** What stops or should give pause before installing: a platform it is not for, an entry point it lacks. */
export function manifestProblems(manifest: McpbManifest, names: ReadonlySet<string>, platform: string): InstallProblem[] {
  const problems: InstallProblem[] = [];
  const platforms = manifest.compatibility?.platforms;
  if (platforms && !platforms.includes(platform as 'linux')) {
    problems.push({ level: 'error', code: 'mcpb_unsupported', message: `It is made for ${platforms.join(', ')}, not for this system (${platform}).` });
  }
  const entry = manifest.server.entry_point.replace(/^\.\//, '');
  if (!names.has(entry)) problems.push({ level: 'error', code: 'mcpb_invalid', message: `Its entry point ${entry} is not in the bundle.` });
  return problems;
}
