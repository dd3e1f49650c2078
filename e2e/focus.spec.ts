import { v7 as uuidv7 } from 'uuid';
import { expect, test } from './fixtures/app.js';
import { hostApi } from './fixtures/api.js';
import { openScriptedChat, send } from './fixtures/chat.js';
import { putHttpToolBundle } from './fixtures/http-target.js';
import { fullShot, shot } from './fixtures/shots.js';
import { typeOver } from './fixtures/typing.js';
import { CORE_BUNDLE as CORE } from '../testing/data/fixtures.js';

test('focus stays where the person is after Allow, a keyboard Send, and Esc in the tools panel', async ({ app }) => {
  const { page } = app;
  const message = page.getByRole('textbox', { name: 'Message' });
  await openScriptedChat(app, [{ toolCalls: [{ name: 'calculator', args: { expression: '1 + 1' } }] }, { text: 'done' }, { text: 'plain' }], [
    { bundleID: CORE, slug: 'calculator', version: 'v1', requiresApproval: true },
  ]);
  await send(page, 'one');
  const dialog = page.getByRole('dialog', { name: 'Approve tool call' });
  await expect(dialog.getByRole('button', { name: 'Allow once' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(message).toBeFocused();
  await expect(page.getByRole('log', { name: 'Messages' })).toContainText('done');
  await send(page, 'two');
  await expect(page.getByRole('log', { name: 'Messages' })).toContainText('plain');
  await expect(message).toBeFocused();
  const panelButton = page.getByRole('button', { name: /1 tool on/ });
  // The answer shows a moment before its run is over; the panel's button stays disabled until then.
  await expect(panelButton).toBeEnabled();
  await panelButton.focus();
  await page.keyboard.press('Enter');
  const panel = page.getByRole('dialog', { name: 'Tools for this chat' });
  await expect(panel).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(panelButton).toBeFocused();
});

test('"New version…" by keyboard: focus on the editor’s title, Tab into the form; Cancel brings it back to "New version…"', async ({ app }) => {
  const { page } = app;
  await putHttpToolBundle(hostApi(app.host), {
    target: '127.0.0.1:9',
    bundle: { slug: 'mine', displayName: 'Mine' },
    slug: 'ping',
    tool: { displayName: 'Ping', argSchema: { type: 'object', properties: {} }, impl: { method: 'GET', urlTemplate: 'http://127.0.0.1:9/ping' } },
  });
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.goto(app.host.url);
  await page.keyboard.press('Control+2');
  await page.getByRole('region', { name: 'Bundles' }).getByRole('button', { name: /^Mine/ }).click();
  await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: /^Ping/ }).click();
  const newVersion = page.getByRole('button', { name: 'New version…' });
  await newVersion.focus();
  await page.keyboard.press('Enter');
  const editor = page.getByRole('region', { name: 'Tool editor' });
  await expect(editor.getByRole('heading', { name: /New version of Ping/ })).toBeFocused();
  await page.screenshot(fullShot('editor-new-version-focus'));
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.closest('[aria-label="Tool editor"]') !== null)).toBe(true);
  await editor.getByRole('button', { name: 'Cancel' }).focus();
  await page.keyboard.press('Enter');
  await expect(editor).toBeHidden();
  await expect(newVersion).toBeFocused();
});

test('at 1000×700 a bundle just made is scrolled into view in a long list', async ({ app }) => {
  const { page } = app;
  const api = hostApi(app.host);
  for (let index = 0; index < 12; index++) await api('PUT', `/tools/bundles/${uuidv7()}`, { slug: `team-${index}`, displayName: `Team ${String(index).padStart(2, '0')}` });
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.goto(app.host.url);
  await page.keyboard.press('Control+2');
  const bundles = page.getByRole('region', { name: 'Bundles' });
  await bundles.getByRole('button', { name: 'New bundle' }).click();
  await typeOver(bundles.getByRole('form', { name: 'New bundle' }).getByLabel('Bundle name'), 'Aardvark services');
  await bundles.getByRole('button', { name: 'Create' }).click();
  const made = bundles.getByRole('button', { name: /^Aardvark services/ });
  await expect(made).toHaveAttribute('aria-current', 'true');
  await expect(made).toBeInViewport();
  await page.screenshot(shot('new-bundle-1000'));
});
