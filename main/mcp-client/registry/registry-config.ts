import { ToolbeltError } from '../../../shared/errors.js';
import type { McpServerConfig } from '../../../shared/schemas/mcp.js';
import { installSecretName } from '../install-plan.js';
import { PACKAGE_RUNNERS, type RawEntry } from './registry-entry.js';

type Input = RawEntry['packages'][number]['environmentVariables'][number];

export interface EntryServer {
  config: McpServerConfig;
  /** Secret values the person typed, by the secret name the config names them with. */
  secrets: Map<string, string>;
}

/**
 * The server one choice of a registry entry runs as, with the person's
 * values: a remote as a URL with its headers, a package as the launcher of
 * its kind (`npx`, `uvx`, `docker run`) with its arguments and environment.
 * Secret values become the person's secrets (the config names them); the
 * command never goes through a shell, so a value is one argument whatever
 * characters it holds.
 */
export function serverFor(entry: RawEntry, choice: string, values: Record<string, string>): EntryServer {
  const [kind, at] = choice.split(':') as ['remote' | 'package', string];
  const secrets = new Map<string, string>();
  const source = entry.summary.name;
  /** One input's value: the person's, else its default; a secret one as a placeholder naming the secret it goes to. */
  const valueOf = (key: string, input: Input, label: string): string | undefined => {
    const given = values[key] ?? input.default;
    if (given === undefined || given === '') {
      if (input.isRequired) throw new ToolbeltError('invalid_params', `${label} is required by ${source}.`, { field: key });
      return undefined;
    }
    if (input.choices?.length && !input.choices.includes(given)) throw new ToolbeltError('invalid_params', `${label} takes one of ${input.choices.join(', ')}.`, { field: key });
    if (!input.isSecret) return given;
    const name = installSecretName('MCP', source, label);
    secrets.set(name, given);
    return `\${secret.${name}}`;
  };
  /** A value fixed by the entry, with its `{variables}` filled; or the person's, when it fixes none. */
  const resolve = (prefix: string, input: Input, label: string): string | undefined => {
    if (input.value === undefined) return valueOf(`${prefix}:${label}`, input, label);
    return input.value.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
      const variable = input.variables?.[name];
      return variable ? (valueOf(`${prefix}:${label}.${name}`, variable, `${label} → ${name}`) ?? '') : whole;
    });
  };

  if (kind === 'remote') {
    const remote = entry.remotes[Number(at)];
    if (!remote) throw new ToolbeltError('not_found', `${source} has no remote ${at}.`);
    if (remote.type !== 'streamable-http' && remote.type !== 'sse') throw new ToolbeltError('invalid_params', `${source}'s remote is ${remote.type}, which Toolbelt cannot connect to.`);
    const url = remote.url.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name: string) => {
      const variable = remote.variables[name];
      return variable ? (valueOf(`url:${name}`, variable, name) ?? '') : whole;
    });
    if (!/^https?:\/\/[^\s]+$/.test(url)) throw new ToolbeltError('invalid_params', `${source}'s address is not an http(s) URL once filled in: ${url.slice(0, 200)}`);
    const headers = Object.fromEntries(remote.headers.flatMap((header) => {
      const value = header.name ? resolve('header', header, header.name) : undefined;
      return header.name && value !== undefined ? [[header.name, value]] : [];
    }));
    return { config: { url, type: remote.type, ...(Object.keys(headers).length ? { headers } : {}) }, secrets };
  }

  const item = entry.packages[Number(at)];
  if (!item) throw new ToolbeltError('not_found', `${source} has no package ${at}.`);
  const runner = PACKAGE_RUNNERS[item.registryType];
  if (!runner || item.transport !== 'stdio') throw new ToolbeltError('invalid_params', `Toolbelt cannot run ${source}'s ${item.registryType} package (${item.transport}).`);
  const argumentsOf = (inputs: Input[]) =>
    inputs.flatMap((arg) => {
      const label = arg.valueHint ?? arg.name ?? 'value';
      const value = resolve('arg', arg, label);
      if (arg.type === 'named' && arg.name) return value === undefined ? (arg.isRequired ? [arg.name] : []) : [arg.name, value];
      return value === undefined ? [] : [value];
    });
  const env = Object.fromEntries(item.environmentVariables.flatMap((variable) => {
    const value = variable.name ? resolve('env', variable, variable.name) : undefined;
    return variable.name && value !== undefined ? [[variable.name, value]] : [];
  }));
  const runtime = argumentsOf(item.runtimeArguments);
  const packaged = argumentsOf(item.packageArguments);
  let args: string[];
  if (item.registryType === 'npm') {
    args = [...(runtime.includes('-y') || runtime.includes('--yes') ? [] : ['-y']), ...runtime, item.version ? `${item.identifier}@${item.version}` : item.identifier, ...packaged];
  } else if (item.registryType === 'pypi') {
    args = [...runtime, item.version ? `${item.identifier}==${item.version}` : item.identifier, ...packaged];
  } else {
    // docker: the environment is passed by name into the container; the image is the identifier, at its version.
    const image = item.version && !/:[^/]+$/.test(item.identifier) ? `${item.identifier}:${item.version}` : item.identifier;
    args = ['run', '-i', '--rm', ...runtime, ...Object.keys(env).flatMap((name) => ['-e', name]), image, ...packaged];
  }
  return { config: { command: runner, args, ...(Object.keys(env).length ? { env } : {}) }, secrets };
}
