import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { v7 as uuidv7 } from 'uuid';
import { openNewToolEditor } from './fixtures/api.js';
import { expect, test } from './fixtures/app.js';
import { fullShot, shot } from './fixtures/shots.js';

async function lookAt(page: Page, name: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot(fullShot(`${name}-${scheme}`));
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
  // Opened, it shows the problem and the file's text, read-only.
  await chats.getByRole('button', { name: new RegExp(`${chatId}\\.json`) }).click();
  await expect(page.getByText('This chat’s file has a problem, so it opens read-only.')).toBeVisible();
  await expect(page.getByLabel('The file’s text')).toHaveText('{"id": "cut off mid-wri');
  await page.getByRole('button', { name: 'Close', exact: true }).click();

  await page.keyboard.press('Control+,');
  await expect(page.getByRole('alert').filter({ hasText: 'Settings are the defaults for now' })).toContainText('settings.json');
  await lookAt(page, 'broken-settings');
  expect(app.consoleErrors.filter((line) => !line.includes('409'))).toEqual([]);
  expect(app.offLoopback).toEqual([]);
});

test('a stored chat the app can no longer read (a tool call without a name) opens read-only with what it said', async ({ app }) => {
  const { page, dataDir } = app;
  const chatId = uuidv7();
  const at = new Date().toISOString();
  const stored = {
    id: chatId, title: 'Trip to Oslo', providerId: 'nobody', model: 'm', tools: { mode: 'auto', selected: [] }, maxTurns: 8, onToolError: 'continue', parallelToolCalls: true,
    status: 'idle', pending: [], alwaysAllowed: [], createdAt: at, updatedAt: at,
    messages: [
      { id: uuidv7(), role: 'user', content: 'Find hotels in Oslo', createdAt: at },
      { id: uuidv7(), role: 'assistant', content: 'Looking.', model: 'm', createdAt: at, toolCalls: [{ id: 'toolu_1', args: {}, status: 'failed' }] },
    ],
  };
  await mkdir(path.join(dataDir, 'chats'), { recursive: true });
  await writeFile(path.join(dataDir, 'chats', `${chatId}.json`), JSON.stringify(stored));

  await page.goto(app.host.url);
  const chats = page.getByRole('navigation', { name: 'Chats' });
  await chats.getByRole('button', { name: /Open read-only/ }).click();
  const pane = page.getByRole('list', { name: 'Messages (read-only)' });
  await expect(page.getByRole('heading', { name: 'Trip to Oslo' })).toBeVisible();
  await expect(page.getByText('Read-only', { exact: true })).toBeVisible();
  await expect(pane).toContainText('Find hotels in Oslo');
  await expect(pane).toContainText('Looking.');
  await expect(pane).toContainText('Tool call (no name) · failed');
  await expect(page.getByRole('status').filter({ hasText: 'opens read-only' })).toContainText(/does not hold a valid chat/);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot(shot(`damaged-chat-${scheme}`));
  }
  // Nothing is written for the person: the file is as they left it.
  expect(JSON.parse(await readFile(path.join(dataDir, 'chats', `${chatId}.json`), 'utf8'))).toEqual(stored);
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
  await expect(editor.getByText(/properties\/pair\/pattern: Uses a backreference/)).toBeVisible();
  await page.screenshot(fullShot('editor-backreference'));
});
