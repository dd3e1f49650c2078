import path from 'node:path';
import { hostApi } from './fixtures/api.js';
import { expect, test } from './fixtures/app.js';
import { openScriptedChat, send, type App } from './fixtures/chat.js';
import { startOAuthMcpServer } from '../testing/servers/oauth-mcp.js';
import { PROJECT_ROOT } from '../testing/cores/spawned-host.js';
import { typeOver } from './fixtures/typing.js';
import { fullShot } from './fixtures/shots.js';

const EVERYTHING = path.join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** The Tools screen with the "Add MCP server" form open. */
async function openAddMcpServer(app: App) {
  const { page } = app;
  await page.goto(app.host.url);
  await page.keyboard.press('Control+2');
  const bundles = page.getByRole('region', { name: 'Bundles' });
  await bundles.getByRole('button', { name: 'Add MCP server' }).click();
  return { page, bundles, form: bundles.getByRole('form', { name: 'Add MCP server' }) };
}

/** server-everything added through the API, as a script would: its bundle's ID. */
async function addEverything(app: App, trust: { askFirst?: 'never' | 'as-annotated' } = {}) {
  const api = hostApi(app.host);
  const { servers } = (await api('POST', '/mcp/import', { mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], ...trust } } })) as { servers: { bundleID: string }[] };
  return { api, bundleID: servers[0]!.bundleID };
}

/** server-everything added through the API, and its bundle picked in the Tools screen. */
async function openEverythingInTools(app: App) {
  const { api } = await addEverything(app);
  const { page } = app;
  await page.goto(app.host.url);
  await page.keyboard.press('Control+2');
  await page.getByRole('region', { name: 'Bundles' }).getByRole('button', { name: /^everything/ }).click();
  return { api, page };
}

test('the MCP server form: typed field by field, with the same server as JSON beside it, then added and connected', async ({ app }) => {
  test.setTimeout(120_000);
  const { page, bundles, form } = await openAddMcpServer(app);
  // Defect 5: a JSON box in a 200 px column was the only way; now a form in a dialog of its own.
  await expect(page.getByRole('dialog', { name: 'Add MCP server' })).toBeVisible();
  await expect(form.getByLabel('Name')).toBeFocused();
  await page.keyboard.type('everything');
  await form.getByLabel('Command', { exact: true }).pressSequentially(process.execPath);
  const args = form.getByLabel('Arguments, one a line');
  await args.pressSequentially(EVERYTHING);
  await args.press('Enter');
  await args.pressSequentially('stdio');
  await form.getByLabel('Environment, KEY=value a line').pressSequentially('GREETING=hello world');
  const json = JSON.parse(await form.getByLabel('Server JSON').inputValue()) as unknown;
  expect(json).toEqual({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], env: { GREETING: 'hello world' } } } });
  await page.screenshot(fullShot('mcp-server-form'));

  // Changed in the JSON, the form follows.
  await form.getByLabel('Server JSON').selectText();
  await page.keyboard.insertText(JSON.stringify({ mcpServers: { remote: { url: 'https://mcp.example.com/mcp', headers: { 'X-Key': '${secret.K}' } } } }));
  await expect(form.getByLabel('URL', { exact: true })).toHaveValue('https://mcp.example.com/mcp');
  await expect(form.getByLabel('Headers, Name: value a line')).toHaveValue('X-Key: ${secret.K}');
  await form.getByRole('radio', { name: 'A command (stdio)' }).check();
  await expect(form.getByLabel('Command', { exact: true })).toHaveValue('');
  await typeOver(form.getByLabel('Name'), 'everything');
  await form.getByLabel('Command', { exact: true }).pressSequentially(process.execPath);
  await form.getByLabel('Arguments, one a line').pressSequentially(`${EVERYTHING}`);
  await form.getByLabel('Arguments, one a line').press('Enter');
  await form.getByLabel('Arguments, one a line').pressSequentially('stdio');
  await form.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('dialog', { name: 'Add MCP server' })).toBeHidden();
  await expect(bundles.getByRole('button', { name: /^everything/ })).toBeVisible();
  await expect(bundles.getByText('connected')).toBeVisible();
  expect(app.consoleErrors).toEqual([]);
});

test('paste an mcpServers document, see the server start with its tools, run one in the tester, and see why another failed', async ({ app }) => {
  test.setTimeout(120_000);
  const { page, bundles, form } = await openAddMcpServer(app);
  const document = JSON.stringify({
    mcpServers: {
      everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
      missing: { command: 'toolbelt-no-such-command-42' },
    },
  });
  // Typed, as a paste arrives: one insertion, then a correction typed key by key.
  await form.getByLabel('Server JSON').focus();
  await page.keyboard.insertText(document.slice(0, -1));
  await form.getByLabel('Server JSON').pressSequentially('}');
  await form.getByRole('button', { name: 'Add' }).click();
  await expect(form.getByRole('alert')).toContainText('missing: The command "toolbelt-no-such-command-42" was not found');
  await form.getByRole('button', { name: 'Close' }).click();

  const everything = bundles.getByRole('button', { name: /^everything/ });
  await expect(everything).toBeVisible();
  await expect(bundles.getByText('connected')).toBeVisible();
  await expect(bundles.getByText(/The command "toolbelt-no-such-command-42" was not found/).last()).toBeVisible();
  await page.screenshot(fullShot('mcp-servers-light'));
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot(fullShot('mcp-servers-dark'));
  await page.emulateMedia({ colorScheme: 'light' });

  await everything.click();
  const tools = page.getByRole('region', { name: 'Tools' });
  await tools.getByRole('button', { name: /^Echo Tool/ }).click();
  const tester = page.getByRole('region', { name: 'Tester' });
  await tester.getByLabel('message').pressSequentially('typed into the tester');
  await tester.getByRole('button', { name: 'Run' }).click();
  await expect(tester.getByTestId('tester-value')).toContainText('Echo: typed into the tester');
  // The tester's trace for an MCP tool is the JSON-RPC exchange.
  const exchange = tester.getByRole('region', { name: 'JSON-RPC exchange' });
  await expect(exchange.getByText('tools/call #', { exact: false })).toBeVisible();
  await exchange.getByText(/^result #/).click();
  await expect(exchange).toContainText('Echo: typed into the tester');
  await page.screenshot(fullShot('mcp-tester'));

  // Each server's state stands under its bundle.
  const failedStatus = bundles.locator('.mcp-status--failed');
  await expect(failedStatus).toContainText('MCP server · failed');
  await failedStatus.scrollIntoViewIfNeeded();
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.screenshot(fullShot('mcp-status-narrow'));

  // Removing a server takes its bundle away.
  await bundles.getByRole('button', { name: 'Remove MCP server missing' }).click();
  await expect(bundles.getByRole('button', { name: 'Remove MCP server missing' })).toHaveCount(0);
  expect(app.consoleErrors).toEqual([]);
  expect(app.offLoopback).toEqual([]);
});

test('a model calls an MCP tool after approval, and switching the server off takes its tools out of the chat', async ({ app }) => {
  test.setTimeout(120_000);
  const { bundleID } = await addEverything(app);
  const { page } = app;
  await openScriptedChat(app, [{ toolCalls: [{ name: 'echo', args: { message: 'from the model' } }] }, { text: 'Echoed it.' }], [{ bundleID, slug: 'echo', version: 'mcp', requiresApproval: true }]);
  await page.getByRole('textbox', { name: 'Message' }).pressSequentially('echo something');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Approve tool call' });
  await expect(dialog).toContainText('This chat asks before running this tool.');
  await page.keyboard.press('Enter');
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log).toContainText('Echoed it.');
  // The result is drawn when the card is opened.
  const card = log.getByRole('article', { name: 'Tool call Echo Tool' });
  await card.getByText('Arguments and result').click();
  await expect(card).toContainText('Echo: from the model');

  await page.keyboard.press('Control+2');
  await page.getByRole('region', { name: 'Bundles' }).getByRole('switch', { name: 'Enable bundle everything' }).click();
  await page.keyboard.press('Control+1');
  await page.getByRole('button', { name: /1 tool on/ }).click();
  const panel = page.getByRole('dialog', { name: 'Tools for this chat' });
  await panel.getByRole('textbox', { name: 'Search tools' }).pressSequentially('echo');
  await expect(panel.getByRole('checkbox', { name: /Echo Tool/ })).toHaveCount(0);
  expect(app.consoleErrors).toEqual([]);
});

test('a server asks a question while its tool runs: the form opens over the screen, is filled by typing, and the answer reaches the tool', async ({ app }) => {
  test.setTimeout(120_000);
  const { page } = await openEverythingInTools(app);
  await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: /^Trigger Elicitation Request Tool/ }).click();
  const tester = page.getByRole('region', { name: 'Tester' });
  await tester.getByRole('button', { name: 'Run' }).click();

  const dialog = page.getByRole('dialog', { name: 'A tool asks you' });
  await expect(dialog).toContainText('From the MCP server everything');
  await expect(dialog).toContainText('Please provide inputs for the following fields:');
  // Titled choices read as their titles; several-of-a-set is a group of checkboxes.
  await expect(dialog.getByLabel('Titled Single Select Enum', { exact: true })).toContainText('Wonder Woman');
  await expect(dialog.getByRole('group', { name: 'Untitled Multiple Select Enum' }).getByRole('checkbox', { name: 'Guitar' })).toBeChecked();
  await dialog.getByRole('textbox', { name: 'String', exact: true }).pressSequentially('Ada Lovelace');
  await dialog.getByLabel('String with email format').pressSequentially('not-an-address');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(dialog.getByText('Must be a valid email.')).toBeVisible();
  await page.screenshot(fullShot('mcp-question'));
  await dialog.getByLabel('String with email format').clear();
  await dialog.getByLabel('String with email format').pressSequentially('ada@example.org');
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(tester.getByTestId('tester-value')).toContainText('Name: Ada Lovelace');
  await expect(tester.getByTestId('tester-value')).toContainText('Email: ada@example.org');
  expect(app.consoleErrors.filter((line) => !line.includes('400'))).toEqual([]);
  expect(app.offLoopback).toEqual([]);
});

test('a long MCP call shows its progress in the tool card, and a picture it returns is drawn there', async ({ app }) => {
  test.setTimeout(120_000);
  // The person trusts this server outright: its calls run without a yes.
  const { bundleID } = await addEverything(app, { askFirst: 'never' });
  const { page } = app;
  await openScriptedChat(
    app,
    [{ toolCalls: [{ name: 'trigger-long-running-operation', args: { duration: 4, steps: 8 } }] }, { toolCalls: [{ name: 'get-tiny-image', args: {} }] }, { text: 'Here it is.' }],
    [
      { bundleID, slug: 'trigger-long-running-operation', version: 'mcp' },
      { bundleID, slug: 'get-tiny-image', version: 'mcp' },
    ],
  );
  // The header's token estimate counts MCP tools' definitions like any other.
  await expect(page.getByRole('button', { name: /2 tools on · ~\d+ tokens/ })).toBeVisible();
  await send(page, 'take your time, then show me a picture');
  const slow = page.getByRole('article', { name: /Tool call Trigger Long Running Operation/ });
  await expect(slow.getByRole('progressbar', { name: /Progress \d of 8/ })).toBeVisible();
  await expect(slow).toContainText(/\d of 8/);
  await page.screenshot(fullShot('mcp-progress'));
  await expect(slow.getByRole('status')).toHaveText('Succeeded');
  await expect(slow.getByRole('progressbar')).toHaveCount(0);

  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log).toContainText('Here it is.');
  const picture = page.getByRole('article', { name: /Tool call Get Tiny Image/ });
  await picture.getByText('Arguments and result').click();
  const image = picture.getByRole('img', { name: /Image from the tool \(image\/png/ });
  await expect(image).toBeVisible();
  expect(await image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot(fullShot('mcp-image-dark'));
  expect(app.consoleErrors).toEqual([]);
  expect(app.offLoopback).toEqual([]);
});

test('a server’s resources and prompts: browsed in the Tools screen, attached from the + palette by typing, and read by the model', async ({ app }) => {
  test.setTimeout(120_000);
  const { api, page } = await openEverythingInTools(app);
  const resources = page.getByRole('list', { name: 'Resources' });
  await resources.getByText('architecture.md').first().click();
  await expect(resources.locator('.code-block')).toContainText('Architecture');
  const prompts = page.getByRole('list', { name: 'Prompts' });
  await prompts.getByText('Arguments Prompt').click();
  const form = prompts.getByRole('form', { name: 'Arguments of prompt args-prompt' });
  await form.getByLabel('city').pressSequentially('Lyon');
  await form.getByRole('button', { name: 'Preview' }).click();
  await expect(prompts.getByRole('list', { name: 'Messages of prompt args-prompt' })).toContainText("What's weather in Lyon?");
  await page.screenshot(fullShot('mcp-offerings'));

  // In a chat: Ctrl+K opens the palette; typing finds the prompt; its arguments are typed; it waits in the box.
  await api('PUT', '/providers/echo', { kind: 'scripted', displayName: 'Echo' });
  await api('POST', '/chats', { providerId: 'echo', model: 'scripted', title: 'Attach chat' });
  await page.keyboard.press('Control+1');
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: /^Attach chat/ }).click();
  await page.getByRole('textbox', { name: 'Message' }).press('Control+k');
  const palette = page.getByRole('dialog', { name: 'Tool palette' });
  await page.keyboard.type('arguments prompt');
  await expect(palette.getByRole('listbox', { name: 'Prompts & resources' })).toContainText('Arguments Prompt');
  await palette.getByRole('option', { name: /Arguments Prompt/ }).click();
  await palette.getByLabel('city').pressSequentially('Paris');
  await page.keyboard.press('Enter');
  await expect(palette).toHaveCount(0);
  const attached = page.getByRole('list', { name: 'Attached to the next message' });
  await expect(attached).toContainText('Arguments Prompt');

  // And a resource, picked with the keyboard only.
  await page.getByRole('textbox', { name: 'Message' }).press('Control+k');
  await page.keyboard.type('architecture.md');
  await expect(palette.getByRole('option', { name: /architecture\.md/ })).toBeVisible();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(attached.getByRole('listitem')).toHaveCount(2);
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.screenshot(fullShot('mcp-attachments-narrow'));
  await send(page, 'Answer both');
  const log = page.getByRole('log', { name: 'Messages' });
  // The message shows what was attached; the echoing model's answer shows it read both.
  const sent = log.locator('.message--user');
  await expect(sent.getByText('Arguments Prompt')).toBeVisible();
  await expect(sent.getByText('architecture.md')).toBeVisible();
  const answer = log.locator('.message--assistant').last();
  await expect(answer).toContainText('You said: Answer both');
  await expect(answer).toContainText('Build and Distribution');
  await sent.getByText('Arguments Prompt').click();
  await expect(sent).toContainText("What's weather in Paris?");
  await expect(attached).toHaveCount(0);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot(fullShot('mcp-attachments-sent-dark'));
  expect(app.consoleErrors).toEqual([]);
  expect(app.offLoopback).toEqual([]);
});

test('a prompt with pictures: attached from the palette by typing, its pictures counted on the chip and drawn in the sent message', async ({ app }) => {
  test.setTimeout(120_000);
  const api = hostApi(app.host);
  await api('POST', '/mcp/import', { mcpServers: { pictures: { command: process.execPath, args: [path.join(PROJECT_ROOT, 'testing/servers/picture-mcp-server.mjs')] } } });
  await api('PUT', '/providers/echo', { kind: 'scripted', displayName: 'Echo' });
  await api('POST', '/chats', { providerId: 'echo', model: 'scripted', title: 'Picture chat' });
  const { page } = app;
  await page.goto(app.host.url);
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: /^Picture chat/ }).click();
  await page.getByRole('textbox', { name: 'Message' }).press('Control+k');
  await page.keyboard.type('look at this');
  const palette = page.getByRole('dialog', { name: 'Tool palette' });
  await palette.getByRole('option', { name: /Look at this/ }).click();
  const chip = page.getByRole('list', { name: 'Attached to the next message' }).getByRole('listitem');
  // The image and the embedded image resource; the SVG is only named.
  await expect(chip).toContainText('2 pictures');
  await send(page, 'What is it?');
  const sent = page.getByRole('log', { name: 'Messages' }).locator('.message--user');
  await sent.getByText('Look at this').click();
  const pictures = sent.getByRole('group', { name: 'Pictures of Look at this' }).getByRole('img');
  await expect(pictures).toHaveCount(2);
  await expect(pictures.first()).toHaveAttribute('alt', 'Picture 1 (image/png, 70 bytes)');
  // Drawn, not broken: the browser decoded it.
  expect(await pictures.first().evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(1);
  await expect(sent).toContainText('left out: models take PNG, JPEG, GIF and WebP');

  // The Tools screen's preview of the prompt draws them too.
  await page.keyboard.press('Control+2');
  await page.getByRole('region', { name: 'Bundles' }).getByRole('button', { name: /^pictures/ }).click();
  const prompts = page.getByRole('list', { name: 'Prompts' });
  await prompts.getByText('Look at this').click();
  await prompts.getByRole('button', { name: 'Preview' }).click();
  await expect(prompts.getByRole('list', { name: 'Messages of prompt look' }).getByRole('img')).toHaveCount(2);
  expect(app.consoleErrors).toEqual([]);
});

test('a remote server behind OAuth: Sign in opens its page, and the server connects when the browser comes back', async ({ app, context }) => {
  test.setTimeout(120_000);
  const remote = await startOAuthMcpServer();
  try {
    const { page, bundles, form } = await openAddMcpServer(app);
    await form.getByLabel('Server JSON').focus();
    await page.keyboard.insertText(JSON.stringify({ mcpServers: { protected: { url: remote.url } } }));
    await form.getByRole('button', { name: 'Add' }).click();
    await form.getByRole('button', { name: 'Close' }).click();
    await expect(bundles.getByText('asks you to sign in')).toBeVisible();
    await page.screenshot(fullShot('mcp-sign-in'));

    const signIn = bundles.getByRole('link', { name: 'Sign in to MCP server protected' });
    const [tab] = await Promise.all([context.waitForEvent('page'), signIn.click()]);
    await expect(tab.getByRole('heading', { name: 'Signed in' })).toBeVisible();
    await tab.close();
    await expect(bundles.locator('.mcp-status--connected')).toContainText('oauth-protected 1.0.0');
    await expect(signIn).toHaveCount(0);

    await bundles.getByRole('button', { name: /^protected/ }).click();
    await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: /^whoami/ }).click();
    const tester = page.getByRole('region', { name: 'Tester' });
    await tester.getByRole('button', { name: 'Run' }).click();
    await expect(tester.getByTestId('tester-value')).toContainText('client ');
    expect(app.consoleErrors).toEqual([]);
    expect(app.offLoopback).toEqual([]);
  } finally {
    await remote.stop();
  }
});

test('tool rows whose names wrap to two lines never overlap the next, after the list changes under them', async ({ app }) => {
  test.setTimeout(120_000);
  const { page } = await openEverythingInTools(app);
  const tools = page.getByRole('list', { name: 'Tools', exact: true });
  await expect(tools.getByRole('button', { name: /^Trigger Long Running Operation/ })).toBeVisible();
  // Once measured (a frame after they appear), every row starts where the one above ends.
  await expect(async () => {
    const boxes = await tools.getByRole('listitem').evaluateAll((rows) => rows.map((row) => row.getBoundingClientRect()).map(({ top, bottom }) => ({ top, bottom })));
    expect(boxes.some(({ top, bottom }) => bottom - top > 70)).toBe(true);
    const sorted = boxes.sort((a, b) => a.top - b.top);
    for (let index = 1; index < sorted.length; index++) expect(sorted[index]!.top).toBeGreaterThanOrEqual(sorted[index - 1]!.bottom - 0.5);
  }).toPass({ timeout: 3_000 });
});
