import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Runs a script in a real Node process (a host is one), through tsx so it can import our TypeScript. */
function runScript(source: string) {
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', source], { cwd: ROOT, encoding: 'utf8', timeout: 20_000 });
}

describe('process guards', () => {
  it('keep a host alive after a stray rejection or exception, and log both with their stack', () => {
    const result = runScript(`
      import { installProcessGuards } from './main/common/process-guards.ts';
      import { createLogger } from './main/log.ts';
      installProcessGuards(createLogger({ write: (line) => process.stderr.write(line + '\\n') }));
      Promise.reject(new Error('disk full'));
      setTimeout(() => { throw new Error('a bug in a timer'); }, 5);
      setTimeout(() => process.stdout.write('still serving'), 50);
    `);
    expect(result.stdout).toBe('still serving');
    expect(result.status).toBe(0);
    const lines = result.stderr.trim().split('\n').map((line) => JSON.parse(line) as { level: string; message: string; error: string });
    expect(lines).toEqual([
      expect.objectContaining({ level: 'error', message: 'unhandled promise rejection; the app keeps running', error: expect.stringContaining('Error: disk full') as unknown }),
      expect.objectContaining({ level: 'error', message: 'uncaught exception; the app keeps running', error: expect.stringContaining('a bug in a timer') as unknown }),
    ]);
  });

  it('are what keeps it alive: without them the same rejection ends the process', () => {
    const result = runScript(`Promise.reject(new Error('disk full')); setTimeout(() => process.stdout.write('still serving'), 50);`);
    expect(result.stdout).toBe('');
    expect(result.status).not.toBe(0);
  });
});
