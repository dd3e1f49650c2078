import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { v7 as uuidv7 } from 'uuid';
import { openNewToolEditor } from './fixtures/api.js';
import { expect, test } from './fixtures/app.js';

const shot = (name: string) => ({ path: test.info().outputPath(`${name}.png`), fullPage: true });

async function lookAt(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot(shot(`${name}-${scheme}`));
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

test('files the app cannot use are shown where a person looks, with the reason and a way out', async ({ app }) => {
  const { page, dataDir } = app;
  await page.setViewportSize({ width: 1000, height: 700 });
  // An interrupted bundle create (no bundle.json), a corrupt chat, a broken settings.json.
  const halfCreated = uuidv7();
  await mkdir(path.join(dataDir, 'bundles', halfCreated, 'tools'), { recursive: true });
  const chatId = uuidv7();
  await mkdir(path.join(dataDir, 'chats'), { recursive: true });
  await writeFile(path.join(dataDir, 'chats', `${chatId}.json`), '{"id": "cut off mid-wri');
  await writeFile(path.join(dataDir, 'settings.json'), '{"theme": "dark",');

  await page.goto(app.host.url);
  await page.keyboard.press('Control+2');
  const bundles = page.getByRole('region', { name: 'Bundles' });
  await expect(bundles.getByText(/bundle\.json is missing/)).toBeVisible();
  await lookAt(page, 'half-created-bundle');
  await bundles.getByRole('button', { name: `Remove folder ${halfCreated}` }).click();
  await expect(bundles.getByText(/bundle\.json is missing/)).toHaveCount(0);
  expect(await readdir(path.join(dataDir, 'bundles'))).not.toContain(halfCreated);

  await page.keyboard.press('Control+1');
  const chats = page.getByRole('navigation', { name: 'Chats' });
  await expect(chats.getByRole('heading', { name: '1 chat cannot be opened' })).toBeVisible();
  await expect(chats.getByText(`${chatId}.json`)).toBeVisible();
  await expect(chats.getByText(/not valid JSON/)).toBeVisible();
  await lookAt(page, 'unreadable-chat');

  await page.keyboard.press('Control+,');
  await expect(page.getByRole('alert').filter({ hasText: 'Settings are the defaults for now' })).toContainText('settings.json');
  await lookAt(page, 'broken-settings');
  expect(app.consoleErrors.filter((line) => !line.includes('409'))).toEqual([]);
  expect(app.offLoopback).toEqual([]);
});

test('a pattern the linear-time engine cannot run is a problem at its field as it is typed', async ({ app }) => {
  const editor = await openNewToolEditor(app);
  const { page } = app;
  await editor.getByLabel('Display name').pressSequentially('Pairs');
  await editor.getByLabel('URL template').pressSequentially('https://example.com/pairs');
  const schema = page.getByTestId('json-editor-argSchema');
  await schema.scrollIntoViewIfNeeded();
  await schema.getByRole('textbox', { name: 'argSchema' }).focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText('{"type": "object", "properties": {"pair": {"type": "string", "pattern": "^(a)\\\\1$"}}}');
  await expect(editor.getByText(/properties\/pair\/pattern: uses a backreference/)).toBeVisible();
  await page.screenshot(shot('editor-backreference'));
});
