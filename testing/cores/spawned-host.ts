import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { HOST_NODE_FLAGS } from '../../scripts/host-node-flags.mjs';

/** The repository: the nearest folder above this file with a package.json, from the sources or from a build (out/bench/). */
export const PROJECT_ROOT = (() => {
  for (let folder = path.dirname(fileURLToPath(import.meta.url)); ; folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, 'package.json'))) return folder;
    if (path.dirname(folder) === folder) throw new Error('Toolbelt: no package.json above the test helpers');
  }
})();

export interface SpawnedHost {
  child: ChildProcess;
  url: string;
  base: string;
  port: number;
  token: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Starts a browser host as its own process and waits for the one line it
 * prints. `command` defaults to the built host; pass npm to go through
 * `npm run serve` as a person would.
 */
export function spawnHost(args: string[], options: { command?: string[]; detached?: boolean; timeoutMs?: number } = {}): Promise<SpawnedHost> {
  const [command, ...prefix] = options.command ?? [process.execPath, ...HOST_NODE_FLAGS, path.join(PROJECT_ROOT, 'out/main/server.js')];
  const child = spawn(command!, [...prefix, ...args], {
    cwd: PROJECT_ROOT,
    detached: options.detached ?? false,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`host did not print its URL in time.\nstdout: ${out}\nstderr: ${err}`));
    }, options.timeoutMs ?? 30_000);
    const check = () => {
      const match = /(http:\/\/127\.0\.0\.1:(\d+)\/#token=([A-Za-z0-9._~%-]+))/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off('data', check);
      resolve({
        child,
        url: match[1]!,
        base: `http://127.0.0.1:${match[2]}`,
        port: Number(match[2]),
        token: decodeURIComponent(match[3]!),
        stdout: () => out,
        stderr: () => err,
        exited,
      });
    };
    child.stdout.on('data', check);
    exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`host exited with ${code} before printing its URL.\nstdout: ${out}\nstderr: ${err}`));
    }, reject);
  });
}

/** Calls a browser host's API as a script would, to set the stage for a test or a bench. */
export function hostApi(host: Pick<SpawnedHost, 'base' | 'token'>) {
  return async function api(method: string, route: string, body?: unknown): Promise<unknown> {
    const response = await fetch(`${host.base}/api${route}`, {
      method,
      headers: { Authorization: `Bearer ${host.token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${route} → ${response.status}: ${text}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  };
}
