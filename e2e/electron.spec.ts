// Runs only when ELECTRON_PATH names a real Electron binary (see
// playwright.config.ts); these machines cannot download one.
import { _electron as electron, expect, test } from '@playwright/test';
import { makeTempDir } from '../testing/cores/temp-dir.js';
import { PROJECT_ROOT } from '../testing/cores/spawned-host.js';
import { openSettings } from './fixtures/settings.js';

test('the desktop app serves the renderer over app:// behind the two-function bridge', async () => {
  const temp = await makeTempDir('toolbelt-electron-');
  const app = await electron.launch({
    executablePath: process.env.ELECTRON_PATH,
    args: [PROJECT_ROOT, '--no-sandbox'],
    env: { ...process.env, TOOLBELT_DATA_DIR: temp.dir },
  });
  try {
    const window = await app.firstWindow();
    expect(window.url()).toBe('app://toolbelt/index.html');
    await expect(window.getByRole('status')).toHaveText('Connected to core');

    const exposure = await window.evaluate(() => ({
      bridge: Object.keys((window as unknown as { toolbelt: object }).toolbelt).sort(),
      hasRequire: typeof (globalThis as { require?: unknown }).require,
      hasProcess: typeof (globalThis as { process?: unknown }).process,
      opened: globalThis.open('https://example.com') === null,
    }));
    expect(exposure).toEqual({ bridge: ['invoke', 'on'], hasRequire: 'undefined', hasProcess: 'undefined', opened: true });

    await openSettings(window, 'About');
    await expect(window.getByText('Desktop app (Electron)')).toBeVisible();
    await expect(window.getByTestId('data-dir')).toHaveText(temp.dir);
    expect(app.windows()).toHaveLength(1);
  } finally {
    await app.close();
    await temp.cleanup();
  }
});
