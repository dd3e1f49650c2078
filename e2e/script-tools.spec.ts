import AxeBuilder from '@axe-core/playwright';
import { v7 as uuidv7 } from 'uuid';
import { hostApi, openNewToolEditor } from './fixtures/api.js';
import { expect, test } from './fixtures/app.js';
import { replaceMonacoText } from './fixtures/monaco.js';
import { fullShot, shot } from './fixtures/shots.js';
import { typeOver } from './fixtures/typing.js';

test('a script tool written in the editor: its schema read from the function as it is typed, run as a draft, saved, and run in the tester with its console', async ({ app }) => {
  test.setTimeout(120_000);
  const bundleID = uuidv7();
  await hostApi(app.host)('PUT', `/tools/bundles/${bundleID}`, { slug: 'scripts', displayName: 'Scripts' });
  const { page } = app;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(app.host.url);
  await page.keyboard.press('Control+2');
  await page.getByRole('region', { name: 'Bundles' }).getByRole('button', { name: /^Scripts/ }).click();
  await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: 'New tool' }).click();
  const editor = page.getByRole('region', { name: 'Tool editor' });
  await typeOver(editor.getByLabel('Display name'), 'Shout');
  await editor.getByLabel('Type').selectOption('script');
  // The starter is there; an example replaces it; then the person writes their own function, on one line as typed.
  await expect(editor.getByText('From the function: 2 parameters')).toBeVisible();
  await editor.getByLabel('Start from an example').selectOption({ label: 'Compute dates and units' });
  await expect(editor.getByText('From the function: 3 parameters')).toBeVisible();
  await replaceMonacoText(page, 'Script code', "export default function shout(text: string, times = 1) { console.log('shouting', text); return text.toUpperCase().repeat(times); }");
  await expect(editor.getByText('From the function: 2 parameters')).toBeVisible();
  const derived = editor.getByRole('region', { name: 'What the function says' });
  await expect(derived).toContainText('text');
  await page.screenshot(fullShot('script-editor'));
  // The draft's schema follows the function as it is typed: its tester and its argSchema editor take it, no click needed.
  await expect(page.getByTestId('json-editor-argSchema').locator('.view-lines')).toContainText('"times"');

  // The draft runs before it is saved.
  const draftTester = editor.getByRole('region', { name: 'Tester' });
  await typeOver(draftTester.getByRole('form', { name: 'Shout (draft)' }).getByLabel('text'), 'hey');
  await draftTester.getByRole('button', { name: 'Run' }).click();
  await expect(draftTester.getByTestId('tester-value')).toContainText('HEY');

  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('button', { name: 'New version…' })).toBeVisible();
  const tester = page.getByRole('region', { name: 'Tester' });
  await typeOver(tester.getByRole('form', { name: 'Shout' }).getByLabel('text'), 'ho');
  await typeOver(tester.getByRole('form', { name: 'Shout' }).getByLabel('times'), '3');
  await tester.getByRole('button', { name: 'Run' }).click();
  await expect(tester.getByTestId('tester-value')).toContainText('HOHOHO');
  await expect(tester.getByRole('list', { name: 'Console' })).toHaveText('shouting ho');
  await expect(tester.getByText(/^[\d,]+ KB of memory$/)).toBeVisible();
  await page.screenshot(shot('script-tester'));

  // A syntax error is said at its line as it is typed.
  await page.getByRole('button', { name: 'New version…' }).click();
  await replaceMonacoText(page, 'Script code', 'export default function (a: string { return a; }');
  await expect(editor.getByText(/Line 1: /).first()).toBeVisible();

  const axe = await new AxeBuilder({ page }).exclude('.monaco-editor').analyze();
  expect(axe.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([]);
  expect(app.consoleErrors).toEqual([]);
});

test('a new tool’s draft starts with no runs: a script draft’s runs stay with it, not with the recipe drafted next', async ({ app }) => {
  const editor = await openNewToolEditor(app);
  const { page } = app;
  const newTool = page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: 'New tool' });
  await typeOver(editor.getByLabel('Display name'), 'Twice');
  await editor.getByLabel('Type').selectOption('script');
  await replaceMonacoText(page, 'Script code', 'export default function twice(n: number) { return n * 2; }');
  await expect(page.getByTestId('json-editor-argSchema').locator('.view-lines')).toContainText('"n"');
  const tester = editor.getByRole('region', { name: 'Tester' });
  await typeOver(tester.getByRole('form', { name: 'Twice (draft)' }).getByLabel('n'), '21');
  await tester.getByRole('button', { name: 'Run' }).click();
  await expect(tester.getByTestId('tester-value')).toContainText('42');
  await expect(tester.getByText('Runs of this draft (1)')).toBeVisible();

  await editor.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('dialog', { name: 'Discard unsaved changes?' }).getByRole('button', { name: 'Discard changes' }).click();
  await newTool.click();
  await typeOver(editor.getByLabel('Display name'), 'Steps');
  await editor.getByLabel('Type').selectOption('recipe');
  await expect(editor.getByRole('region', { name: 'Tester' }).getByRole('form', { name: 'Steps (draft)' })).toBeVisible();
  await expect(editor.getByText(/Runs of this draft/)).toHaveCount(0);
  expect(app.consoleErrors).toEqual([]);
});
