import type { RegistryChoice, RegistryEntry, RegistryInput } from '../../../shared/schemas/mcp-install.js';

/**
 * A registry's `server.json` entry, read defensively: a registry is a
 * stranger on the network, so every field is checked for its type and cut
 * to a sane length, and anything else is ignored.
 */
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown, max = 2_000): string | undefined => (typeof value === 'string' && value.length > 0 ? value.slice(0, max) : undefined);
const list = (value: unknown, max = 50): unknown[] => (Array.isArray(value) ? value.slice(0, max) : []);

/** The inputs of one `KeyValueInput` or `Argument` (and its `variables`), keyed for the form. */
interface RawInput {
  name?: string;
  description?: string;
  isRequired?: boolean;
  isSecret?: boolean;
  default?: string;
  placeholder?: string;
  choices?: string[];
  value?: string;
  variables?: Record<string, RawInput>;
  type?: string;
  valueHint?: string;
}

function rawInput(value: unknown): RawInput {
  if (!isObject(value)) return {};
  const variables = isObject(value.variables)
    ? Object.fromEntries(Object.entries(value.variables).slice(0, 20).map(([name, inner]) => [name.slice(0, 100), rawInput(inner)]))
    : undefined;
  const optional = <K extends keyof RawInput>(key: K, got: RawInput[K] | undefined) => (got === undefined ? {} : { [key]: got });
  return {
    ...optional('name', text(value.name, 200)),
    ...optional('description', text(value.description)),
    ...optional('isRequired', value.isRequired === true ? true : undefined),
    ...optional('isSecret', value.isSecret === true ? true : undefined),
    ...optional('default', text(value.default, 8_192)),
    ...optional('placeholder', text(value.placeholder, 500)),
    ...optional('choices', Array.isArray(value.choices) ? value.choices.filter((choice): choice is string => typeof choice === 'string').slice(0, 50) : undefined),
    ...optional('value', text(value.value, 8_192)),
    ...optional('variables', variables),
    ...optional('type', text(value.type, 20)),
    ...optional('valueHint', text(value.valueHint, 200)),
  };
}

export interface RawPackage {
  registryType: string;
  identifier: string;
  version?: string;
  runtimeHint?: string;
  transport: string;
  runtimeArguments: RawInput[];
  packageArguments: RawInput[];
  environmentVariables: RawInput[];
}

export interface RawRemote {
  type: string;
  url: string;
  headers: RawInput[];
  variables: Record<string, RawInput>;
}

/** What Toolbelt keeps of one entry: enough to show it and to turn a choice of it into a server. */
export interface RawEntry {
  summary: Omit<RegistryEntry, 'choices'>;
  packages: RawPackage[];
  remotes: RawRemote[];
}

export function readEntry(response: unknown): RawEntry | null {
  if (!isObject(response) || !isObject(response.server)) return null;
  const server = response.server;
  const name = text(server.name, 200);
  const version = text(server.version, 255);
  if (!name || !version) return null;
  const official = isObject(response._meta) && isObject(response._meta['io.modelcontextprotocol.registry/official']) ? response._meta['io.modelcontextprotocol.registry/official'] : {};
  const summary: RawEntry['summary'] = { name, version, description: text(server.description, 1_000) ?? '' };
  const title = text(server.title, 100);
  if (title) summary.title = title;
  const status = text(official.status, 20);
  if (status) summary.status = status;
  const statusMessage = text(official.statusMessage, 500);
  if (statusMessage) summary.statusMessage = statusMessage;
  const repository = isObject(server.repository) ? text(server.repository.url) : undefined;
  if (repository) summary.repository = repository;
  const website = text(server.websiteUrl);
  if (website) summary.websiteUrl = website;
  const published = text(official.publishedAt, 40);
  if (published) summary.publishedAt = published;
  const packages = list(server.packages).filter(isObject).map((item): RawPackage => ({
    registryType: text(item.registryType, 40) ?? '',
    identifier: text(item.identifier, 500) ?? '',
    ...(text(item.version, 255) ? { version: text(item.version, 255)! } : {}),
    ...(text(item.runtimeHint, 40) ? { runtimeHint: text(item.runtimeHint, 40)! } : {}),
    transport: isObject(item.transport) ? (text(item.transport.type, 40) ?? 'stdio') : 'stdio',
    runtimeArguments: list(item.runtimeArguments).map(rawInput),
    packageArguments: list(item.packageArguments).map(rawInput),
    environmentVariables: list(item.environmentVariables).map(rawInput),
  }));
  const remotes = list(server.remotes).filter(isObject).map((item): RawRemote => ({
    type: text(item.type, 40) ?? '',
    url: text(item.url, 4_000) ?? '',
    headers: list(item.headers).map(rawInput),
    variables: isObject(item.variables) ? Object.fromEntries(Object.entries(item.variables).slice(0, 20).map(([key, inner]) => [key.slice(0, 100), rawInput(inner)])) : {},
  }));
  return { summary, packages, remotes };
}

/** How Toolbelt runs each package kind: a launcher it does not need to install. */
export const PACKAGE_RUNNERS: Record<string, string> = { npm: 'npx', pypi: 'uvx', oci: 'docker' };

/** The form fields a value asks for: the entry's own `{variables}`, or the value itself when it has none fixed. */
function inputsOf(prefix: string, input: RawInput, label: string): RegistryInput[] {
  const field = (key: string, from: RawInput, fieldLabel: string): RegistryInput => ({
    key,
    label: fieldLabel,
    ...(from.description ? { description: from.description } : {}),
    required: from.isRequired ?? false,
    secret: from.isSecret ?? false,
    ...(from.default ? { default: from.default } : {}),
    ...(from.placeholder ? { placeholder: from.placeholder } : {}),
    ...(from.choices?.length ? { choices: from.choices } : {}),
  });
  if (input.value !== undefined) return Object.entries(input.variables ?? {}).map(([name, inner]) => field(`${prefix}:${label}.${name}`, inner, `${label} → ${name}`));
  return [field(`${prefix}:${label}`, input, label)];
}

export function choicesOf(entry: RawEntry): RegistryChoice[] {
  const remotes = entry.remotes.map((remote, index): RegistryChoice => ({
    id: `remote:${index}`,
    kind: 'remote',
    type: remote.type,
    label: remote.url,
    ...(remote.type === 'streamable-http' || remote.type === 'sse' ? {} : { unsupported: `Toolbelt connects to streamable-http and sse remotes, not ${remote.type || 'this one'}.` }),
    inputs: [
      ...Object.entries(remote.variables).flatMap(([name, input]) => inputsOf('url', input, name)),
      ...remote.headers.flatMap((header) => (header.name ? inputsOf('header', header, header.name) : [])),
    ],
  }));
  const packages = entry.packages.map((item, index): RegistryChoice => {
    const runner = PACKAGE_RUNNERS[item.registryType];
    const unsupported = !runner
      ? `Toolbelt runs npm, PyPI and OCI packages, not ${item.registryType || 'this kind'}.`
      : item.transport !== 'stdio'
        ? `It runs as a local ${item.transport} server; Toolbelt runs packages over stdio.`
        : undefined;
    const argument = (prefix: string) => (arg: RawInput) => (arg.value === undefined || arg.variables ? inputsOf(prefix, arg, arg.valueHint ?? arg.name ?? 'value') : []);
    return {
      id: `package:${index}`,
      kind: 'package',
      type: item.registryType,
      label: `${item.identifier}${item.version ? `@${item.version}` : ''}`,
      ...(unsupported ? { unsupported } : {}),
      inputs: [
        ...item.runtimeArguments.flatMap(argument('arg')),
        ...item.packageArguments.flatMap(argument('arg')),
        ...item.environmentVariables.flatMap((variable) => (variable.name ? inputsOf('env', variable, variable.name) : [])),
      ],
    };
  });
  return [...remotes, ...packages];
}
