import { freePort } from '../testing/cores/free-port.js';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { makeTempDir } from '../testing/cores/temp-dir.js';

const ROOT = path.resolve(import.meta.dirname, '..');


// `npm run dev` as a developer starts it: the page must load from Vite (whose
// own modules live under /api/ too) and reach the core through the proxy.
test('npm run dev serves the renderer with hot reload, connected to the core', async ({ page }) => {
  test.setTimeout(150_000);
  const temp = await makeTempDir();
  const dev = spawn(process.execPath, [path.join(ROOT, 'scripts/dev.mjs'), '--data-dir', temp.dir], {
    cwd: ROOT,
    env: { ...process.env, TOOLBELT_DEV_API_PORT: String(await freePort()) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  try {
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no dev URL within 60 s:\n${output}`)), 60_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const found = /running at (http:\/\/127\.0\.0\.1:\d+\/#token=\S+)/.exec(output);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]!);
        }
      };
      dev.stdout.on('data', read);
      dev.stderr.on('data', read);
      dev.on('exit', (code) => reject(new Error(`npm run dev exited with ${code}:\n${output}`)));
    });
    const errors: string[] = [];
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.context().route('**/*', (route) => (new URL(route.request().url()).hostname === '127.0.0.1' ? route.continue() : route.abort('blockedbyclient')));
    await page.goto(url);
    await expect(page.getByText('Connected to core')).toBeVisible({ timeout: 45_000 });
    await page.keyboard.press('Control+2');
    await expect(page.getByRole('region', { name: 'Bundles' }).getByRole('button', { name: /^Core/ })).toBeVisible();
    expect(errors).toEqual([]);
  } finally {
    // The dev command leads its own process group (Vite and the host): stop them all. One that already exited
    // (the failure above says why) has nothing left to stop, and must not hide that reason behind ESRCH.
    if (dev.exitCode === null && dev.signalCode === null) {
      const exited = once(dev, 'exit');
      process.kill(-dev.pid!, 'SIGTERM');
      await exited;
    }
    await temp.cleanup();
  }
});
