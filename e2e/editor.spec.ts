import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { hostApi } from './fixtures/api.js';
import { expect, test } from './fixtures/app.js';

const shot = (name: string) => ({ path: test.info().outputPath(`${name}.png`), fullPage: true });

/** Replaces the text of a Monaco editor, as typing would, without its auto-closing of brackets. */
async function replaceMonacoText(page: Page, label: string, text: string) {
  const editor = page.getByTestId(`json-editor-${label}`);
  await editor.scrollIntoViewIfNeeded();
  await editor.getByRole('textbox', { name: label }).focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

test('create a bundle, define an HTTP tool in the form, break and fix its schema in Monaco, save and run it', async ({ app }) => {
  const server = createServer((request, response) => {
    response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ echoed: decodeURIComponent(request.url ?? '') }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const target = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    await hostApi(app.host)('PATCH', '/settings', { allowedHosts: [target] });
    const { page } = app;
    await page.goto(app.host.url);
    await page.keyboard.press('Control+2');

    const bundles = page.getByRole('region', { name: 'Bundles' });
    await bundles.getByRole('button', { name: 'New bundle' }).click();
    await bundles.getByRole('form', { name: 'New bundle' }).getByLabel('Bundle name').fill('My services');
    await bundles.getByRole('button', { name: 'Create' }).click();
    await expect(bundles.getByRole('button', { name: /^My services/ })).toHaveAttribute('aria-current', 'true');

    await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: 'New tool' }).click();
    const editor = page.getByRole('region', { name: 'Tool editor' });
    await editor.getByLabel('Display name').fill('Echo back');
    await expect(editor.getByLabel('Slug')).toHaveValue('echo-back');
    await editor.getByLabel('URL template').fill(`http://${target}/echo/\${word}`);
    await expect(editor.getByText('${word} is not an argument, so it is read from the secret word', { exact: false }).first()).toBeVisible();

    // A typo in the schema is caught with its path; fixing it clears the problem.
    await replaceMonacoText(page, 'argSchema', '{"type": "object", "properties": {"word": {"type": "strin", "title": "Word"}}, "required": ["word"]}');
    await expect(editor.getByText(/properties\/word\/type/).first()).toBeVisible();
    await page.screenshot(shot('editor-schema-error'));
    await replaceMonacoText(page, 'argSchema', '{"type": "object", "properties": {"word": {"type": "string", "title": "Word"}}, "required": ["word"]}');
    await expect(editor.getByRole('status')).toHaveText('No problems found.');
    await expect(editor.getByRole('form', { name: 'Preview of Echo back' }).getByLabel('Word')).toBeVisible();
    await page.screenshot(shot('editor-form'));

    // The draft runs in the tester before it is saved.
    const draftTester = editor.getByRole('region', { name: 'Tester' });
    await draftTester.getByRole('form', { name: 'Echo back (draft)' }).getByLabel('Word').fill('draft run');
    await draftTester.getByRole('button', { name: 'Run' }).click();
    await expect(draftTester.getByTestId('tester-value')).toContainText('/echo/draft run');

    await editor.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('button', { name: 'New version…' })).toBeVisible();
    const tester = page.getByRole('region', { name: 'Tester' });
    await tester.getByRole('form', { name: 'Echo back' }).getByLabel('Word').fill('ça va');
    await tester.getByRole('button', { name: 'Run' }).click();
    await expect(tester.getByTestId('tester-value')).toContainText('/echo/ça va');

    // The same <slug, version> again is refused next to the version field.
    await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: 'New tool' }).click();
    await editor.getByLabel('Display name').fill('Echo back');
    await editor.getByLabel('URL template').fill(`http://${target}/x`);
    await expect(editor.getByText(/already exists in this bundle/).first()).toBeVisible();

    const axe = await new AxeBuilder({ page }).exclude('.monaco-editor').analyze();
    expect(axe.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([]);
    expect(app.consoleErrors).toEqual([]);
    expect(app.offLoopback).toEqual([]);
  } finally {
    server.close();
  }
});

test('built-in bundles are read-only: no edit controls at all', async ({ app }) => {
  const { page } = app;
  await page.goto(app.host.url);
  await page.keyboard.press('Control+2');
  const bundles = page.getByRole('region', { name: 'Bundles' });
  await bundles.getByRole('button', { name: /^Core/ }).click();
  await expect(page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: 'New tool' })).toHaveCount(0);
  await expect(bundles.getByRole('button', { name: /Delete bundle Core/ })).toHaveCount(0);
  await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: /Calculator/ }).click();
  await expect(page.getByText('Built-in · read-only')).toBeVisible();
  await expect(page.getByRole('button', { name: 'New version…' })).toHaveCount(0);
});

test('a deleted bundle can be brought back with Undo', async ({ app }) => {
  const api = hostApi(app.host);
  await api('PUT', '/tools/bundles/01a2f000-0000-7000-8000-000000000001', { slug: 'temp', displayName: 'Temporary' });
  const { page } = app;
  await page.goto(app.host.url);
  await page.keyboard.press('Control+2');
  const bundles = page.getByRole('region', { name: 'Bundles' });
  await bundles.getByRole('button', { name: 'Delete bundle Temporary' }).click();
  await expect(bundles.getByRole('button', { name: /^Temporary/ })).toHaveCount(0);
  await bundles.getByRole('button', { name: 'Undo' }).click();
  await expect(bundles.getByRole('button', { name: /^Temporary/ })).toBeVisible();
});
