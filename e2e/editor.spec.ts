import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { clickBundleAction, hostApi, openNewToolEditor } from './fixtures/api.js';
import { expect, test } from './fixtures/app.js';
import { replaceMonacoText } from './fixtures/monaco.js';
import { fullShot, shot } from './fixtures/shots.js';
import { typeOver } from './fixtures/typing.js';

test('create a bundle, define an HTTP tool in the form, break and fix its schema in Monaco, save and run it', async ({ app }) => {
  // Many steps, typed into Monaco: a busy CI machine took 33 s once, and past 60 s with Chromium 156.
  test.setTimeout(120_000);
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
    await typeOver(bundles.getByRole('form', { name: 'New bundle' }).getByLabel('Bundle name'), 'My services');
    await bundles.getByRole('button', { name: 'Create' }).click();
    await expect(bundles.getByRole('button', { name: /^My services/ })).toHaveAttribute('aria-current', 'true');

    await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: 'New tool' }).click();
    const editor = page.getByRole('region', { name: 'Tool editor' });
    await typeOver(editor.getByLabel('Display name'), 'Echo back');
    await expect(editor.getByLabel('Slug')).toHaveValue('echo-back');
    await typeOver(editor.getByLabel('URL template'), `http://${target}/echo/\${word}`);
    await expect(editor.getByText('${word} is not an argument, so it is read from the secret word', { exact: false }).first()).toBeVisible();

    // A typo in the schema is caught with its path; fixing it clears the problem.
    await replaceMonacoText(page, 'argSchema', '{"type": "object", "properties": {"word": {"type": "strin", "title": "Word"}}, "required": ["word"]}');
    await expect(editor.getByText(/properties\/word\/type/).first()).toBeVisible();
    await page.screenshot(fullShot('editor-schema-error'));
    await replaceMonacoText(page, 'argSchema', '{"type": "object", "properties": {"word": {"type": "string", "title": "Word"}}, "required": ["word"]}');
    await expect(editor.getByRole('status')).toHaveText('No problems found.');
    await expect(editor.getByRole('form', { name: 'Preview of Echo back' }).getByLabel('Word')).toBeVisible();
    // Typed on one line, laid out by Format (defect 6: there was none): a line for each key as it nests.
    const schemaLines = page.getByTestId('json-editor-argSchema').locator('.view-line');
    await expect(schemaLines).toHaveCount(1);
    await editor.getByRole('button', { name: 'Format argSchema' }).click();
    await expect.poll(() => schemaLines.count()).toBeGreaterThan(8);
    await expect(editor.getByRole('status')).toHaveText('No problems found.');
    await page.screenshot(fullShot('editor-form'));

    // The draft runs in the tester before it is saved.
    const draftTester = editor.getByRole('region', { name: 'Tester' });
    await typeOver(draftTester.getByRole('form', { name: 'Echo back (draft)' }).getByLabel('Word'), 'draft run');
    await draftTester.getByRole('button', { name: 'Run' }).click();
    await expect(draftTester.getByTestId('tester-value')).toContainText('/echo/draft run');

    await editor.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('button', { name: 'New version…' })).toBeVisible();
    const tester = page.getByRole('region', { name: 'Tester' });
    await typeOver(tester.getByRole('form', { name: 'Echo back' }).getByLabel('Word'), 'ça va');
    await tester.getByRole('button', { name: 'Run' }).click();
    await expect(tester.getByTestId('tester-value')).toContainText('/echo/ça va');

    // The same <slug, version> again is refused next to the version field.
    await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: 'New tool' }).click();
    await typeOver(editor.getByLabel('Display name'), 'Echo back');
    await typeOver(editor.getByLabel('URL template'), `http://${target}/x`);
    await expect(editor.getByText(/already exists in this bundle/).first()).toBeVisible();

    const axe = await new AxeBuilder({ page }).exclude('.monaco-editor').analyze();
    expect(axe.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([]);
    expect(app.consoleErrors).toEqual([]);
    expect(app.offLoopback).toEqual([]);
  } finally {
    server.close();
  }
});

test('built-in bundles are read-only: no edit controls at all; "New tool" there, on a first visit, makes "My tools" and opens the editor in it', async ({ app }) => {
  const { page } = app;
  await page.goto(app.host.url);
  await page.keyboard.press('Control+2');
  const bundles = page.getByRole('region', { name: 'Bundles' });
  await bundles.getByRole('button', { name: /^Core/ }).click();
  await expect(bundles.getByRole('button', { name: /Delete bundle Core/ })).toHaveCount(0);
  await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: /Calculator/ }).click();
  await expect(page.getByText('Built-in · read-only')).toBeVisible();
  await expect(page.getByRole('button', { name: 'New version…' })).toHaveCount(0);
  // New tool is always there: with none of the person's bundles yet, it says it makes one, and does.
  const newTool = page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: 'New tool' });
  await expect(newTool).toHaveAttribute('title', 'New tool, in a new bundle “My tools”');
  await newTool.focus();
  await page.keyboard.press('Enter');
  await expect(bundles.getByRole('button', { name: /^My tools/ })).toHaveAttribute('aria-current', 'true');
  await expect(page.getByRole('region', { name: 'Tool editor' }).getByLabel('Display name')).toBeVisible();
  await expect(newTool).toHaveAttribute('title', 'New tool, in My tools');
});

test('a deleted bundle can be brought back with Undo', async ({ app }) => {
  const api = hostApi(app.host);
  await api('PUT', '/tools/bundles/01a2f000-0000-7000-8000-000000000001', { slug: 'temp', displayName: 'Temporary' });
  const { page } = app;
  await page.goto(app.host.url);
  await page.keyboard.press('Control+2');
  const bundles = page.getByRole('region', { name: 'Bundles' });
  await clickBundleAction(page, 'Temporary', 'Delete bundle');
  await expect(bundles.getByRole('button', { name: /^Temporary/ })).toHaveCount(0);
  await bundles.getByRole('button', { name: 'Undo' }).click();
  await expect(bundles.getByRole('button', { name: /^Temporary/ })).toBeVisible();
});

test('an existing tool is saved as a new version, and an on-disk change offers Reload or Keep mine', async ({ app }) => {
  const api = hostApi(app.host);
  const bundleID = '01a2f000-0000-7000-8000-000000000002';
  await api('PUT', `/tools/bundles/${bundleID}`, { slug: 'svc', displayName: 'Service' });
  const created = (await api('PUT', `/tools/bundles/${bundleID}/tools/lookup/version/v1`, {
    displayName: 'Lookup',
    type: 'http',
    argSchema: { type: 'object', properties: {} },
    impl: { method: 'GET', urlTemplate: 'https://api.example.com/lookup' },
  })) as { toolID: string };

  const { page } = app;
  await page.goto(app.host.url);
  await page.keyboard.press('Control+2');
  await page.getByRole('region', { name: 'Bundles' }).getByRole('button', { name: /^Service/ }).click();
  await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: /^Lookup/ }).click();
  await page.getByRole('button', { name: 'New version…' }).click();
  const editor = page.getByRole('region', { name: 'Tool editor' });
  await expect(editor.getByLabel('Version')).toHaveValue('v2');
  await typeOver(editor.getByLabel('Description'), 'Second take');
  await editor.getByRole('button', { name: 'Save as new version' }).click();
  const tools = page.getByRole('region', { name: 'Tools' });
  await expect(tools.getByRole('button', { name: /lookup@v2/ })).toBeVisible();
  await expect(tools.getByRole('button', { name: /lookup@v1/ })).toBeVisible();

  // Edit v1 again while someone changes its file on disk.
  await tools.getByRole('button', { name: /lookup@v1/ }).click();
  await page.getByRole('button', { name: 'New version…' }).click();
  await expect(editor.getByLabel('Display name')).toHaveValue('Lookup');
  const file = path.join(app.dataDir, 'bundles', bundleID, 'tools', `${created.toolID}.json`);
  const onDisk = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  await writeFile(file, JSON.stringify({ ...onDisk, displayName: 'Lookup (edited in git)', modifiedAt: new Date().toISOString() }, null, 2));
  await expect(editor.getByRole('alert')).toContainText('changed on disk');
  await editor.getByRole('button', { name: 'Reload' }).click();
  await expect(editor.getByLabel('Display name')).toHaveValue('Lookup (edited in git)');
  await expect(editor.getByRole('alert')).toHaveCount(0);
});

test('the slug follows the whole display name as it is typed, until the slug is edited', async ({ app }) => {
  const editor = await openNewToolEditor(app);
  await editor.getByLabel('Display name').pressSequentially('City weather');
  await expect(editor.getByLabel('Slug')).toHaveValue('city-weather');
  await editor.getByLabel('Display name').pressSequentially(' now');
  await expect(editor.getByLabel('Slug')).toHaveValue('city-weather-now');
  // Once the person edits the slug, it is theirs.
  await editor.getByLabel('Slug').press('End');
  await editor.getByLabel('Slug').pressSequentially('-v2');
  await editor.getByLabel('Display name').pressSequentially('!');
  await expect(editor.getByLabel('Slug')).toHaveValue('city-weather-now-v2');
});

test('problems are sentences about their field, shown once the field is touched; Save shows the rest and goes to the first', async ({ app }) => {
  const { page } = app;
  const editor = await openNewToolEditor(app);
  // An untouched form shows no problem at any field, and says how it works.
  await expect(editor.getByRole('status')).toHaveText('Fill in the form; a field with a problem says so once you have typed in it or left it.');
  await expect(editor.locator('.field__error')).toHaveCount(0);
  await page.screenshot(fullShot('editor-untouched'));

  await editor.getByLabel('URL template').press('Control+a');
  await editor.getByLabel('URL template').pressSequentially('htps://api.example.com/weather');
  await page.keyboard.press('Tab');
  await expect(editor.getByText("Start the URL with http:// or https://, or with / to go on from the bundle's base URL.")).toBeVisible();
  await expect(editor.getByText(/must match|must NOT/)).toHaveCount(0);
  // The name the person has not reached yet says nothing until Save.
  await expect(editor.getByText(/Give it a name/)).toHaveCount(0);

  await editor.getByLabel('Slug').pressSequentially('city weather');
  await expect(editor.getByText('Use letters, digits and "-" only, up to 64 characters.')).toBeVisible();
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor.getByText('Give it a name people will recognise (up to 200 characters).')).toBeVisible();
  await expect(editor.getByLabel('Display name')).toBeFocused();
  await expect(editor.getByRole('status')).toHaveText('3 problems to fix.');
  await expect(editor.getByLabel('Slug')).toHaveAttribute('aria-invalid', 'true');
  await page.screenshot(fullShot('editor-sentences'));

  // Fixed one by one, as typed, each problem goes.
  await page.keyboard.type('City weather');
  await editor.getByLabel('Slug').press('Control+a');
  await editor.getByLabel('Slug').pressSequentially('city-weather');
  await editor.getByLabel('URL template').press('Home');
  await editor.getByLabel('URL template').press('ArrowRight');
  await editor.getByLabel('URL template').press('ArrowRight');
  await page.keyboard.type('t');
  await expect(editor.getByRole('status')).toHaveText('No problems found.');
});

test('JSON that does not parse is never dropped: shown at its field and in the footer, Save waits, tool.json carries it as typed, and leaving asks first', async ({ app }) => {
  const editor = await openNewToolEditor(app);
  const { page } = app;
  await editor.getByLabel('Display name').pressSequentially('City weather');
  // An argSchema whose last brace is deleted, and a Retry block typed half-way.
  await replaceMonacoText(page, 'argSchema', '{"type": "object", "properties": {"city": {"type": "string"}}}');
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Backspace');
  await expect(editor.getByText(/^Not valid JSON: .*Nothing is lost: fix it here to save\.$/).first()).toBeVisible();
  await editor.getByLabel('Retry').pressSequentially('{"maxAttempts": 3');
  const footer = editor.getByRole('status').filter({ hasText: 'not valid JSON' });
  await expect(footer).toHaveText('2 fields are not valid JSON (argSchema, impl/retry). Fix them to save; what you typed is kept.');
  const save = editor.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();
  // Disabled looks disabled.
  expect(Number(await save.evaluate((element) => getComputedStyle(element).opacity))).toBeLessThan(0.6);
  await page.screenshot(fullShot('editor-unparsable'));

  // The document view shows both as typed; the form waits until the document parses.
  await editor.getByRole('tab', { name: 'tool.json' }).click();
  const document = editor.getByTestId('json-editor-tool.json');
  await expect(document).toContainText('"maxAttempts": 3');
  await expect(document).toContainText('"city": {"type": "string"}}');
  await expect(editor.getByRole('tab', { name: 'Form' })).toHaveAttribute('aria-disabled', 'true');
  await expect(editor.getByRole('alert')).toContainText('Not valid JSON');

  // Leaving asks; "Keep editing" keeps everything, "Discard changes" leaves.
  await editor.getByRole('button', { name: 'Cancel' }).click();
  const ask = page.getByRole('dialog', { name: 'Discard unsaved changes?' });
  await expect(ask).toContainText('You have not saved your new tool.');
  await page.keyboard.press('Escape');
  await expect(ask).toHaveCount(0);
  await expect(document).toContainText('"maxAttempts": 3');
  await page.keyboard.press('Control+1');
  await expect(ask).toBeVisible();
  await ask.getByRole('button', { name: 'Discard changes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Chat' })).toBeVisible();
  expect(app.consoleErrors).toEqual([]);
});

test('at 1000×700 the navigation keeps its icons, bundles stack over tools, and the editor and tester keep a usable width', async ({ app }) => {
  const { page } = app;
  await page.setViewportSize({ width: 1000, height: 700 });
  const editor = await openNewToolEditor(app);
  await editor.getByLabel('Display name').pressSequentially('City weather');
  expect((await editor.boundingBox())!.width).toBeGreaterThan(560);
  // Named for screen readers and tooltips even with only icons showing.
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Chat' })).toBeVisible();
  const bundles = (await page.getByRole('region', { name: 'Bundles' }).boundingBox())!;
  const tools = (await page.locator('.pane--tools').boundingBox())!;
  expect(tools.y).toBeGreaterThanOrEqual(bundles.y + bundles.height - 1);
  await page.screenshot(fullShot('editor-narrow'));
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot(fullShot('editor-narrow-dark'));
});

test('two versions of a tool are told apart everywhere, the older one is retired from the newer, and one version is deleted with undo', async ({ app }) => {
  const api = hostApi(app.host);
  const bundleID = '01a2f000-0000-7000-8000-000000000003';
  await api('PUT', `/tools/bundles/${bundleID}`, { slug: 'svc', displayName: 'Service' });
  await api('PUT', `/tools/bundles/${bundleID}/tools/lookup/version/v1`, {
    displayName: 'Lookup',
    type: 'http',
    argSchema: { type: 'object', properties: {} },
    impl: { method: 'GET', urlTemplate: 'https://api.example.com/lookup' },
  });
  const { page } = app;
  await page.goto(app.host.url);
  await page.keyboard.press('Control+2');
  await page.getByRole('region', { name: 'Bundles' }).getByRole('button', { name: /^Service/ }).click();
  const tools = page.getByRole('region', { name: 'Tools' });
  await tools.getByRole('button', { name: /^Lookup/ }).click();
  await page.getByRole('button', { name: 'New version…' }).click();
  const editor = page.getByRole('region', { name: 'Tool editor' });
  await typeOver(editor.getByLabel('Description'), 'Second take');
  await editor.getByRole('button', { name: 'Save as new version' }).click();

  // Defect 2: the two rows said the same; now each says which it is.
  await expect(tools.getByRole('button', { name: /lookup@v2/ })).toContainText('v2 latest');
  await expect(tools.getByRole('button', { name: /lookup@v1/ })).toContainText('v1 older version');
  // From the latest, the older one is switched off in one step, and the versions say so.
  const versions = page.locator('.tool-versions');
  await expect(versions.getByRole('button', { name: 'Open version v2' })).toHaveAttribute('aria-current', 'true');
  await page.getByRole('button', { name: 'Switch off the older version' }).click();
  await expect(versions.getByRole('button', { name: 'Open version v1' })).toContainText('off');
  expect(((await api('GET', `/tools/bundles/${bundleID}/tools/lookup/version/v1`)) as { isEnabled: boolean }).isEnabled).toBe(false);
  await page.screenshot(shot('tool-versions'));

  // Defect 3: one version deleted, not the whole bundle, with Undo. The page of v1 is opened and deleted while the
  // core's answer to reading it again is still on its way (held here, as on a busy machine): Undo must still put
  // back v1 as the core had it (off), not as the window last saw it before it was switched off.
  let releaseReads!: () => void;
  const readsHeld = new Promise<void>((resolve) => (releaseReads = resolve));
  await page.route(/\/lookup\/version\/v1$/, async (route) => {
    if (route.request().method() === 'GET') await readsHeld;
    await route.continue();
  });
  await versions.getByRole('button', { name: 'Open version v1' }).click();
  await page.getByRole('button', { name: 'Delete version v1' }).click();
  releaseReads();
  const toast = page.getByRole('status').filter({ hasText: 'Deleted “Lookup” v1.' });
  await expect(toast).toBeVisible();
  await expect(tools.getByRole('button', { name: /lookup@v1/ })).toHaveCount(0);
  // The version left is shown, as the only one.
  await expect(page.getByRole('heading', { level: 2, name: 'Lookup' })).toBeVisible();
  await expect(page.locator('.tool-versions')).toHaveCount(0);
  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(tools.getByRole('button', { name: /lookup@v1/ })).toContainText('v1 older version');
  await expect(page.locator('.tool-versions').getByRole('button', { name: 'Open version v1' })).toHaveAttribute('aria-current', 'true');
  expect(((await api('GET', `/tools/bundles/${bundleID}/tools/lookup/version/v1`)) as { isEnabled: boolean; description?: string }).isEnabled).toBe(false);
  expect(app.consoleErrors).toEqual([]);
});

test('one list of problems and one verdict: a secret not set yet is a warning at its field and in the footer, and the tool saves', async ({ app }) => {
  const { page } = app;
  const editor = await openNewToolEditor(app);
  await editor.getByLabel('Display name').pressSequentially('Ping');
  await typeOver(editor.getByLabel('URL template'), 'https://api.example.com/ping?key=${secret.PING_KEY}');
  await page.keyboard.press('Tab');
  // Defect 7: red under the field while the footer said "No problems found." and Save was on.
  const warning = editor.locator('.field__warning').filter({ hasText: 'the secret PING_KEY is not set yet' }).first();
  await expect(warning).toBeVisible();
  await expect(editor.getByLabel('URL template')).not.toHaveAttribute('aria-invalid', 'true');
  await expect(editor.locator('.field__error')).toHaveCount(0);
  await expect(editor.getByRole('status')).toHaveText(/^No problems; one warning: URL template: The secret PING_KEY is not set yet; set it in Settings before running\. It saves as it is\.$/);
  await page.screenshot(fullShot('editor-warning'));
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('button', { name: 'New version…' })).toBeVisible();
});

test('Tab leaves a code editor for the next field, as in any form, and Ctrl+M switches it to typing tabs (said under the editor)', async ({ app }) => {
  const { page } = app;
  await page.goto(app.host.url);
  await page.keyboard.press('Control+2');
  // A first visit: "New tool" makes the person's bundle for it.
  await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: 'New tool' }).click();
  const schema = page.getByTestId('json-editor-argSchema');
  const text = schema.getByRole('textbox', { name: 'argSchema' });
  // The hint sits in the editor's frame, beside Monaco's own element.
  const hint = schema.locator('xpath=..').locator('.json-editor__keys');
  const before = await schema.locator('.view-lines').innerText();
  await text.focus();
  await expect(hint).toHaveText('Tab moves to the next field · Ctrl+M: Tab types a tab');
  await page.screenshot(fullShot('editor-tab-moves'));
  // Tab goes on to the next control, and Shift+Tab comes back: no tab typed, nothing trapped.
  await page.keyboard.press('Tab');
  await expect(text).not.toBeFocused();
  const next = await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent ?? '');
  expect(next).not.toBe('');
  await page.keyboard.press('Shift+Tab');
  await expect(text).toBeFocused();
  expect(await schema.locator('.view-lines').innerText()).toBe(before);
  // Switched: Tab types a tab (two spaces in these editors) and stays.
  await page.keyboard.press('Control+m');
  await expect(hint).toHaveText('Tab types a tab · Ctrl+M: Tab moves to the next field');
  await page.keyboard.press('Control+Home');
  await page.keyboard.press('Tab');
  await expect(text).toBeFocused();
  await expect.poll(() => schema.locator('.view-lines').innerText()).not.toBe(before);
  await page.keyboard.press('Control+z');
  await page.keyboard.press('Control+m');
  await page.keyboard.press('Tab');
  await expect(text).not.toBeFocused();
  await expect(hint).toHaveText('Tab moves to the next field · Ctrl+M: Tab types a tab');
});

test('the code editors narrow with the window: opened wide, then at 1000×700 each fits its card (no code cut off at the edge)', async ({ app }) => {
  await app.page.setViewportSize({ width: 1600, height: 800 });
  const editor = await openNewToolEditor(app);
  await editor.getByLabel('Type').selectOption('script');
  const codeEditors = editor.locator('.json-editor');
  // Laid out wide first (Monaco loads after the form).
  await expect(editor.locator('.monaco-editor')).toHaveCount(3);
  await app.page.setViewportSize({ width: 1000, height: 700 });
  // Each editor's right edge inside the tool editor's: a fieldset is as wide as its content unless told otherwise.
  const overflow = () =>
    codeEditors.evaluateAll((elements) => elements.map((element) => Math.round(element.getBoundingClientRect().right - element.closest('section')!.getBoundingClientRect().right)).filter((past) => past > 0));
  await expect.poll(overflow).toEqual([]);
  await codeEditors.first().scrollIntoViewIfNeeded();
  await app.page.screenshot(shot('editor-narrowed'));
  expect(app.consoleErrors).toEqual([]);
});
