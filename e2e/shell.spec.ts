import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../testing/cores/spawned-host.js';
import { expect, test } from './fixtures/app.js';
import { openSettings } from './fixtures/settings.js';
import { fullShot } from './fixtures/shots.js';

const { version } = JSON.parse(readFileSync(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as { version: string };

test('the app loads connected, with no console errors and nothing leaving 127.0.0.1', async ({ app }) => {
  const { page } = app;
  await page.goto(app.host.url);
  await expect(page.getByRole('heading', { level: 1, name: 'Chat' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText('Connected to core');
  await expect(page.getByText(`v${version}`)).toBeVisible();
  // The token leaves the address bar once the page has it.
  expect(page.url()).not.toContain('token');
  // Opened again in the same tab (only the fragment changes, no new page): the token leaves again.
  await page.goto(app.host.url);
  await expect.poll(() => page.url()).not.toContain('token');
  await expect(page.getByRole('status')).toHaveText('Connected to core');
  await page.screenshot(fullShot('chat-empty'));
  await page.reload();
  await expect(page.getByRole('status')).toHaveText('Connected to core');
  expect(app.consoleErrors).toEqual([]);
  expect(app.offLoopback).toEqual([]);
});

test('navigation works by keyboard alone', async ({ app }) => {
  const { page } = app;
  await page.goto(app.host.url);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('button', { name: 'Chat' })).toHaveAttribute('aria-current', 'page');

  // Tab past the skip link into the navigation, arrow down, Enter.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(nav.getByRole('button', { name: 'Chat' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(nav.getByRole('button', { name: 'Tools' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Tools' })).toBeVisible();
  await expect(nav.getByRole('button', { name: 'Tools' })).toHaveAttribute('aria-current', 'page');
  await page.keyboard.press('End');
  await expect(nav.getByRole('button', { name: 'Settings' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(nav.getByRole('button', { name: 'Chat' })).toBeFocused();

  // Shortcuts jump straight to a screen and put focus on its heading.
  await page.keyboard.press('Control+3');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeFocused();
  await page.keyboard.press('Control+1');
  await expect(page.getByRole('heading', { level: 1, name: 'Chat' })).toBeFocused();
  await page.keyboard.press('Control+,');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  expect(app.consoleErrors).toEqual([]);
});

test('the window never scrolls as a whole: every screen fits it, wide and narrow, and scrolls in its own panes', async ({ app }) => {
  const { page } = app;
  await page.goto(app.host.url);
  const overflow = () => page.evaluate(() => document.documentElement.scrollHeight - innerHeight);
  for (const size of [{ width: 1280, height: 800 }, { width: 1000, height: 700 }]) {
    await page.setViewportSize(size);
    for (const [keys, screen] of [['Control+1', 'Chat'], ['Control+2', 'Tools'], ['Control+3', 'Settings']] as const) {
      await page.keyboard.press(keys);
      await expect(page.getByRole('heading', { level: 1, name: screen })).toBeVisible();
      expect(await overflow(), `${screen} at ${size.width}×${size.height}`).toBe(0);
    }
    // The tool editor, Monaco and all.
    await page.keyboard.press('Control+2');
    await page.getByRole('region', { name: 'Bundles' }).getByRole('button', { name: /^Core/ }).click();
    await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: /^Calculator/ }).click();
    await expect(page.getByRole('region', { name: 'Tester' })).toBeVisible();
    expect(await overflow(), `a tool at ${size.width}×${size.height}`).toBe(0);
  }
});

test('Settings shows the version and data folder from the core', async ({ app }) => {
  const { page } = app;
  await page.goto(app.host.url);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  // Settings' own navigation, by keyboard: from the first section down to About, the last (defect 10).
  const sections = page.getByRole('navigation', { name: 'Settings sections' });
  await expect(sections.getByRole('button', { name: 'Providers' })).toHaveAttribute('aria-current', 'page');
  await sections.getByRole('button', { name: 'Providers' }).focus();
  await page.keyboard.press('End');
  await expect(sections.getByRole('button', { name: 'About' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(sections.getByRole('button', { name: 'About' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('region', { name: 'Providers' })).toHaveCount(0);
  await expect(page.getByTestId('app-version')).toHaveText(`Toolbelt ${version}`);
  await expect(page.getByTestId('data-dir')).toHaveText(app.dataDir);
  await expect(page.getByText('Browser host', { exact: true }).first()).toBeVisible();
  await page.screenshot(fullShot('settings'));
});

test('the theme follows the system and can be overridden', async ({ app }) => {
  const { page } = app;
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(app.host.url);
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const dark = await background();
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await background();
  expect(dark).not.toBe(light);

  await openSettings(page, 'Appearance and keys');
  await page.getByRole('radio', { name: 'Dark' }).check();
  expect(await background()).toBe(dark);
  await page.screenshot(fullShot('settings-dark'));
  await page.reload();
  await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked();
  expect(await background()).toBe(dark);
  await page.getByRole('radio', { name: 'System' }).check();
  expect(await background()).toBe(light);
});

test('without its token the page explains how to get in', async ({ app }) => {
  const { page } = app;
  await page.goto(app.host.base + '/');
  await expect(page.getByRole('heading', { name: 'This Toolbelt needs its access link' })).toBeVisible();
  await page.screenshot(fullShot('locked'));
  expect(app.consoleErrors).toEqual([]);
});

test('the status bar notices when the core goes away', async ({ app }) => {
  const { page } = app;
  await page.goto(app.host.url);
  await expect(page.getByRole('status')).toHaveText('Connected to core');
  app.host.child.kill('SIGTERM');
  await app.host.exited;
  await expect(page.getByRole('status')).toContainText('reconnecting');
  await page.screenshot(fullShot('disconnected'));
});
