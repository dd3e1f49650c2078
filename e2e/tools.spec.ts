import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { v7 as uuidv7 } from 'uuid';
import { hostApi } from './fixtures/api.js';
import { expect, test } from './fixtures/app.js';
import { fullShot, shot } from './fixtures/shots.js';
import { typeOver } from './fixtures/typing.js';

test('built-in bundles are listed with working switches, and switching one off hides its tools', async ({ app }) => {
  const { page } = app;
  await page.goto(app.host.url);
  await page.keyboard.press('Control+2');
  const bundles = page.getByRole('region', { name: 'Bundles' });
  const tools = page.getByRole('region', { name: 'Tools' });
  await expect(bundles.getByRole('button', { name: /Weather \(Open-Meteo\)/ })).toBeVisible();
  await expect(bundles.getByText('Built-in').first()).toBeVisible();
  await expect(tools.getByRole('button', { name: /Find a place/ })).toBeVisible();
  await page.screenshot(fullShot('tools-all'));
  // The hidden edit buttons of a row take no width of its own: a user bundle's name is on one line (defect 5: one
  // word a line, at 1280×800 and more so at 1000×700).
  await hostApi(app.host)('PUT', `/tools/bundles/${uuidv7()}`, { slug: 'team-notes', displayName: 'Team notes service' });
  const title = bundles.locator('.list__title', { hasText: 'Team notes service' });
  for (const size of [{ width: 1280, height: 800 }, { width: 1000, height: 700 }]) {
    await page.setViewportSize(size);
    const lineHeight = await title.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight));
    expect((await title.boundingBox())!.height, `${size.width}×${size.height}`).toBeLessThan(lineHeight * 1.5);
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  await tools.getByLabel('Show switched-off and broken tools').uncheck();
  await bundles.getByRole('switch', { name: 'Enable bundle Weather (Open-Meteo)' }).click();
  await expect(bundles.getByRole('switch', { name: 'Enable bundle Weather (Open-Meteo)' })).toHaveAttribute('aria-checked', 'false');
  await expect(tools.getByRole('button', { name: /Find a place/ })).toHaveCount(0);
  await bundles.getByRole('switch', { name: 'Enable bundle Weather (Open-Meteo)' }).click();
  await expect(tools.getByRole('button', { name: /Find a place/ })).toBeVisible();

  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([]);
  expect(app.consoleErrors).toEqual([]);
  expect(app.offLoopback).toEqual([]);
});

test('search ranks as you type, and the tester runs a local tool', async ({ app }) => {
  const { page } = app;
  await page.goto(app.host.url);
  await page.keyboard.press('Control+2');
  const tools = page.getByRole('region', { name: 'Tools' });
  await typeOver(tools.getByRole('searchbox', { name: 'Search tools' }), 'calc');
  await expect(tools.getByRole('list', { name: 'Tools' }).getByRole('button').first()).toContainText('Calculator');
  await tools.getByRole('button', { name: /Calculator/ }).click();

  const tester = page.getByRole('region', { name: 'Tester' });
  const form = tester.getByRole('form', { name: 'Calculator' });
  await typeOver(form.getByLabel('Expression'), '(2 + 3) * 4');
  await form.getByRole('button', { name: 'Run' }).click();
  await expect(tester.getByRole('region', { name: 'Response' })).toContainText('ok');
  await expect(tester.getByTestId('tester-value')).toHaveText(/"value": 20/);

  // Ctrl+Enter runs again; a bad expression is an error result, shown as such.
  await typeOver(form.getByLabel('Expression'), '1 / 0');
  await form.getByLabel('Expression').press('Control+Enter');
  await expect(tester.getByRole('region', { name: 'Response' })).toContainText('local_error');
  // With runs in its history, the detail pane still fits its width: nothing scrolls sideways, "Run again" is whole
  // (defect 5), at 1280×800 and 1000×700.
  await typeOver(form.getByLabel('Expression'), 'sqrt(2) * sqrt(2) * 1000000 + 123456.789');
  await form.getByLabel('Expression').press('Control+Enter');
  await expect(tester.getByRole('list', { name: 'Past runs' }).getByRole('listitem')).toHaveCount(3);
  // The tool's page counts its calls over the last day and week, the failed one among them.
  const figures = page.locator('.pane--detail dl');
  await expect(figures).toContainText(/Last 24 hours\s*3 calls · 1 failed · median [\d.]+ ms, 95% within [\d.]+ ms/);
  await expect(figures).toContainText(/Last 7 days\s*3 calls · 1 failed/);
  await figures.scrollIntoViewIfNeeded();
  await page.screenshot(shot('tool-call-figures'));
  for (const size of [{ width: 1280, height: 800 }, { width: 1000, height: 700 }]) {
    await page.setViewportSize(size);
    const detail = page.locator('.pane--detail');
    expect(await detail.evaluate((element) => element.scrollWidth - element.clientWidth), `${size.width}×${size.height}`).toBe(0);
    const runAgain = tester.getByRole('button', { name: 'Run again' }).first();
    const [button, pane] = [await runAgain.boundingBox(), await detail.boundingBox()];
    expect(button!.x + button!.width).toBeLessThanOrEqual(pane!.x + pane!.width);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot(fullShot('tester-local'));
  expect(app.consoleErrors).toEqual([]);
});

test('an HTTP tool in the tester: host allowlist, attempts, masked secrets, Copy as cURL', async ({ app, context }) => {
  const SECRET = 'sk-test-8c1f2e9d7a6b';
  const server = createServer((request, response) => {
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ path: request.url, authorization: request.headers.authorization ?? null }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const target = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const api = hostApi(app.host);
    const bundleID = uuidv7();
    await api('PUT', '/secrets/ECHO_KEY', { value: SECRET });
    await api('PUT', `/tools/bundles/${bundleID}`, { slug: 'echo', displayName: 'Echo service' });
    await api('PUT', `/tools/bundles/${bundleID}/tools/echo/version/v1`, {
      displayName: 'Echo',
      type: 'http',
      argSchema: { type: 'object', properties: { word: { type: 'string', title: 'Word' } }, required: ['word'] },
      impl: { method: 'GET', urlTemplate: `http://${target}/echo/\${word}`, auth: { kind: 'bearer', token: '${ECHO_KEY}' } },
    });

    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const { page } = app;
    await page.goto(app.host.url);
    await page.keyboard.press('Control+2');
    await page.getByRole('region', { name: 'Bundles' }).getByRole('button', { name: /^Echo service/ }).click();
    await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: /^Echo HTTP/ }).click();
    const tester = page.getByRole('region', { name: 'Tester' });
    const form = tester.getByRole('form', { name: 'Echo' });

    await form.getByRole('button', { name: 'Run' }).click();
    await expect(form.getByText('Required.')).toBeVisible();

    await typeOver(form.getByLabel('Word'), 'hello world');
    await form.getByRole('button', { name: 'Run' }).click();
    const response = tester.getByRole('region', { name: 'Response' });
    await expect(response).toContainText('host_not_allowed');
    await response.getByRole('button', { name: `Allow ${target}` }).click();
    await expect(response).toContainText('HTTP 200');
    await expect(tester.getByTestId('tester-value')).toContainText('/echo/hello%20world');
    await expect(tester.getByTestId('tester-value')).toContainText('Bearer •••');
    await expect(response.getByText('Attempt 1')).toBeVisible();
    await page.screenshot(fullShot('tester-http'));

    await form.getByRole('button', { name: 'Copy as cURL' }).click();
    const curl = await page.evaluate(() => navigator.clipboard.readText());
    expect(curl).toContain('Authorization: Bearer ${ECHO_KEY}');
    expect(curl).toContain(`http://${target}/echo/hello%20world`);
    expect(curl).not.toContain(SECRET);
    expect(await page.content()).not.toContain(SECRET);
    expect(app.consoleErrors).toEqual([]);
  } finally {
    server.close();
  }
});

test('a tool added on disk by another program appears without a reload', async ({ app }) => {
  const { page } = app;
  await page.goto(app.host.url);
  await page.keyboard.press('Control+2');
  const tools = page.getByRole('region', { name: 'Tools' });
  await expect(tools.getByRole('button', { name: /Calculator/ })).toBeVisible();

  const bundleID = uuidv7();
  const toolID = uuidv7();
  const at = new Date().toISOString();
  const folder = path.join(app.dataDir, 'bundles', bundleID);
  await mkdir(path.join(folder, 'tools'), { recursive: true });
  await writeFile(
    path.join(folder, 'bundle.json'),
    JSON.stringify({ schemaVersion: '1', bundleID, slug: 'pulled', displayName: 'Pulled from git', description: '', isEnabled: true, isBuiltIn: false, createdAt: at, modifiedAt: at }),
  );
  await writeFile(
    path.join(folder, 'tools', `${toolID}.json`),
    JSON.stringify({
      schemaVersion: '1', toolID, bundleID, slug: 'fresh', version: 'v1', displayName: 'Freshly pulled', description: '', tags: [],
      type: 'http', isEnabled: true, isBuiltIn: false, argSchema: { type: 'object' },
      impl: { method: 'GET', urlTemplate: 'https://api.example.com/' }, createdAt: at, modifiedAt: at,
    }),
  );
  await expect(tools.getByRole('button', { name: /Freshly pulled/ })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Bundles' }).getByRole('button', { name: /^Pulled from git/ })).toBeVisible();
});

test('the tester shows each attempt and why it was retried', async ({ app }) => {
  let calls = 0;
  const server = createServer((_request, response) => {
    calls++;
    if (calls === 1) response.writeHead(503, { 'Content-Type': 'application/json' }).end('{"busy":true}');
    else response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"items":[{"id":1}]}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const target = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const api = hostApi(app.host);
    const bundleID = uuidv7();
    await api('PATCH', '/settings', { allowedHosts: [target] });
    await api('PUT', `/tools/bundles/${bundleID}`, { slug: 'flaky', displayName: 'Flaky service' });
    await api('PUT', `/tools/bundles/${bundleID}/tools/items/version/v1`, {
      displayName: 'Items',
      type: 'http',
      argSchema: { type: 'object', properties: {} },
      impl: {
        method: 'GET',
        urlTemplate: `http://${target}/items`,
        retry: { maxAttempts: 3, backoff: 'constant', initialDelayMs: 50, retryOnStatus: [503] },
        extractExpr: '$.items[0].id',
      },
    });
    const { page } = app;
    await page.goto(app.host.url);
    await page.keyboard.press('Control+2');
    await page.getByRole('region', { name: 'Bundles' }).getByRole('button', { name: /^Flaky service/ }).click();
    await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: /^Items/ }).click();
    const tester = page.getByRole('region', { name: 'Tester' });
    await tester.getByRole('button', { name: 'Run' }).click();
    const response = tester.getByRole('region', { name: 'Response' });
    await expect(response).toContainText('2 attempts');
    await expect(response.getByText('retried: HTTP 503 is in retryOnStatus, after 50 ms')).toBeVisible();
    await expect(response.getByText('Attempt 2')).toBeVisible();
    await expect(tester.getByTestId('tester-value')).toHaveText('1');
    await expect(page.getByText(/^1 call, last /)).toBeVisible();
    await page.screenshot(fullShot('tester-retry'));
  } finally {
    server.close();
  }
});

test("a bundle's hooks that came with it are off until read and switched on; the person's own go on when saved (keyboard only)", async ({ app }) => {
  const { page } = app;
  const bundleID = uuidv7();
  const command = "node ./hooks/check-before-sending.mjs --refuse 'DROP TABLE' --log \"$HOME/.toolbelt-hooks.log\"";
  // As a ZIP or another program leaves it: hooks saved, never switched on.
  await hostApi(app.host)('PUT', `/tools/bundles/${bundleID}`, { slug: 'shared-notes', displayName: 'Shared notes', hooks: { PreToolUse: [{ matcher: 'create-note', hooks: [{ type: 'command', command }] }] } });
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.goto(app.host.url);
  await page.keyboard.press('Control+2');
  const bundles = page.getByRole('region', { name: 'Bundles' });
  const row = bundles.getByRole('button', { name: /^Shared notes/ });
  await expect(row).toContainText('hooks off');
  await row.focus();
  await page.keyboard.press('Enter');
  const open = bundles.getByRole('button', { name: 'Hooks of Shared notes' });
  await open.focus();
  await page.keyboard.press('Enter');

  const dialog = page.getByRole('dialog', { name: 'Hooks of Shared notes' });
  const state = dialog.getByRole('status');
  await expect(state).toContainText('Off: these came with the bundle');
  // What it would run, whole, before anything runs.
  await expect(state.locator('code')).toHaveText(command);
  await expect(state).toContainText('PreToolUse on create-note');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot(shot('bundle-hooks-off-dark'));
  await page.emulateMedia({ colorScheme: 'light' });

  // Focus starts in the editor; Tab backwards reaches the switch.
  await expect(dialog.getByLabel('Hooks (JSON)')).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(dialog.getByRole('button', { name: 'Switch these hooks on' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(state).toContainText('On: these run at every call');
  await expect(dialog.getByRole('button', { name: 'Switch these hooks off' })).toBeFocused();
  await page.screenshot(shot('bundle-hooks-on'));
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();
  await expect(row).not.toContainText('hooks off');

  // Hooks the person types are theirs: on as saved.
  await page.keyboard.press('Enter');
  const editor = dialog.getByLabel('Hooks (JSON)');
  await expect(editor).toBeFocused();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.type('{"PostToolUse": [{"hooks": [{"type": "command", "command": "node log.mjs"}]}]}');
  await dialog.getByRole('button', { name: 'Save hooks' }).focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  const saved = (await hostApi(app.host)('GET', '/tools/bundles')) as { bundles: { bundleID: string; hooks?: unknown; hooksOn?: boolean }[] };
  expect(saved.bundles.find((bundle) => bundle.bundleID === bundleID)).toMatchObject({ hooks: { PostToolUse: [{ hooks: [{ type: 'command', command: 'node log.mjs' }] }] }, hooksOn: true });
  await expect(row).not.toContainText('hooks off');
});
