import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { PROJECT_ROOT } from '../cores/spawned-host.js';

/** An SDK v2 server that speaks only 2026-07-28 (it refuses the 2025 handshake), stopped when the test ends: its URL. */
export async function startModernServer(...args: string[]): Promise<string> {
  return startModernServerWith({}, ...args);
}

export function startModernServerWith(env: Record<string, string>, ...args: string[]): Promise<string> {
  return startServerScript('modern-mcp-server.mjs', env, args);
}

/** A 2026-07-28 server whose `report` tool runs only as a task of the tasks extension (STAGES, STAGE_MS in env). */
export function startTasksServer(env: Record<string, string> = {}): Promise<string> {
  return startServerScript('tasks-2026-mcp-server.mjs', env, []);
}

async function startServerScript(script: string, env: Record<string, string>, args: string[]): Promise<string> {
  const child = spawn(process.execPath, [path.join(PROJECT_ROOT, 'testing/servers', script), ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  onTestFinished(async () => {
    child.kill();
    if (child.exitCode === null) await once(child, 'exit');
  });
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  return line.toString().trim();
}
