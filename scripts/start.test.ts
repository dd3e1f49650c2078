import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../testing/cores/spawned-host.js';
import { tempDirForTest } from '../testing/harness/test-temp-dir.js';

/** Runs `npm start`'s script until it prints the host URL, then stops it. */
async function startWithout(env: NodeJS.ProcessEnv) {
  const dataDir = await tempDirForTest();
  const child = spawn(process.execPath, ['scripts/start.mjs', '--data-dir', dataDir], {
    cwd: PROJECT_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    // Ready once the URL is out and start.mjs has decided about a browser.
    const check = () => {
      if (stdout.includes('#token=') && /No display found|Could not open/.test(stderr)) resolve();
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      check();
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      check();
    });
    child.once('exit', () => reject(new Error(`start exited early: ${stderr}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  return { stdout, stderr, code: await exited, dataDir };
}

describe('npm start without Electron', () => {
  it('says why in one line and runs the browser host instead', async () => {
    const { DISPLAY: _display, WAYLAND_DISPLAY: _wayland, ELECTRON_PATH: _electron, ...env } = process.env;
    const run = await startWithout(env);
    const notices = run.stderr.split('\n').filter((line) => line.startsWith('Electron cannot start here'));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain('runs in your browser instead');
    expect(run.stdout).toMatch(/^Toolbelt is running at http:\/\/127\.0\.0\.1:\d+\/#token=\S+\n$/);
    expect(run.stderr).toContain('No display found');
    expect(run.code).toBe(0);
  });

  it("keeps the host's JSON log out of the terminal, in a file in the data folder it names", async () => {
    const { DISPLAY: _display, WAYLAND_DISPLAY: _wayland, ELECTRON_PATH: _electron, ...env } = process.env;
    const run = await startWithout(env);
    const logPath = path.join(run.dataDir, 'logs', 'browser-host.log');
    expect(run.stderr.split('\n').filter((line) => line.startsWith('{'))).toEqual([]);
    expect(run.stderr).toContain(`Toolbelt's log: ${logPath}`);
    const lines = (await readFile(logPath, 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { message: string });
    expect(lines.map((line) => line.message)).toContain('browser host started');
  });

  it('names a wrong ELECTRON_PATH', async () => {
    const run = await startWithout({ ...process.env, ELECTRON_PATH: '/nowhere/electron', DISPLAY: '' });
    expect(run.stderr).toContain('ELECTRON_PATH points to /nowhere/electron');
  });
});
