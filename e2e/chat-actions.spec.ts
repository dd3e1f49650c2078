import type { Download } from '@playwright/test';
import { geminiReply, startFakeGemini } from '../testing/servers/fake-gemini.js';
import { strFromU8, unzipSync } from 'fflate';
import { pictureSize } from '../shared/files/file-sniff.js';
import { hostApi } from './fixtures/api.js';
import { putHttpToolBundle, startHttpTarget } from './fixtures/http-target.js';
import { expect, test } from './fixtures/app.js';
import { openScriptedChat, send } from './fixtures/chat.js';
import { replaceMonacoText } from './fixtures/monaco.js';
import { shot } from './fixtures/shots.js';

test('message actions: copy an answer, edit a message and send it again, regenerate the last answer', async ({ app, context }) => {
  const { page } = app;
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // No script: the provider echoes the last message, so each answer shows what it answered.
  const { api, chatId } = await openScriptedChat(app, undefined);
  const log = page.getByRole('log', { name: 'Messages' });
  await send(page, 'Capital of Frnace?');
  await expect(log).toContainText('You said: Capital of Frnace?');
  await send(page, 'Thanks');
  await expect(log).toContainText('You said: Thanks');

  const answers = log.getByRole('toolbar', { name: 'Answer actions' });
  await answers.first().hover();
  await answers.first().getByRole('button', { name: 'Copy answer' }).click();
  await expect(answers.first().getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('You said: Capital of Frnace?');

  // Edit the first message: the typo goes, and so does everything after it.
  const first = log.getByText('Capital of Frnace?', { exact: true });
  await first.hover();
  await log.getByRole('toolbar', { name: 'Message actions' }).first().getByRole('button', { name: 'Edit message' }).click();
  const editor = log.getByRole('form', { name: 'Edit message' }).getByRole('textbox', { name: 'Message' });
  await expect(editor).toBeFocused();
  await expect(editor).toHaveValue('Capital of Frnace?');
  // Esc leaves the message as it was.
  await page.keyboard.press('Escape');
  await expect(editor).toBeHidden();
  await expect(log).toContainText('You said: Thanks');
  await page.screenshot(shot('message-actions'));

  await first.hover();
  await log.getByRole('toolbar', { name: 'Message actions' }).first().getByRole('button', { name: 'Edit message' }).click();
  await page.keyboard.press('End');
  for (let i = 0; i < 'Frnace?'.length; i++) await page.keyboard.press('Backspace');
  await page.keyboard.type('France?');
  await page.screenshot(shot('message-edit'));
  await page.keyboard.press('Enter');
  await expect(log).toContainText('You said: Capital of France?');
  await expect(log).not.toContainText('Frnace');
  await expect(log).not.toContainText('Thanks');
  await expect(log.getByRole('toolbar', { name: 'Message actions' })).toHaveCount(1);

  // Regenerate answers the last message again, in place of the old answer.
  const before = (await api('GET', `/chats/${chatId}`)) as { messages: { id: string; role: string }[] };
  const oldAnswer = before.messages.at(-1)!.id;
  await log.getByRole('button', { name: 'Regenerate answer' }).click();
  await expect.poll(async () => ((await api('GET', `/chats/${chatId}`)) as { messages: { id: string }[] }).messages.at(-1)!.id).not.toBe(oldAnswer);
  await expect(log.getByText('You said: Capital of France?')).toHaveCount(1);
  const after = (await api('GET', `/chats/${chatId}`)) as { messages: { role: string }[]; status: string };
  expect(after.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
});

test('Continue after Stop: the model goes on from where it stopped; actions wait while it streams', async ({ app }) => {
  const { page } = app;
  const long = Array.from({ length: 200 }, (_, index) => `word${index}`).join(' ');
  await openScriptedChat(app, [{ text: long }, { text: 'and that is the end.' }], [], 40);
  await send(page, 'Tell me a long story');
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log).toContainText('word3');
  // While it streams, Edit says why it cannot be used.
  await log.getByText('Tell me a long story').hover();
  const edit = log.getByRole('button', { name: 'Edit message' });
  await expect(edit).toHaveAttribute('aria-disabled', 'true');
  await expect(edit).toHaveAttribute('title', /Wait for the answer, or stop it first/);
  await page.getByRole('button', { name: /Stop/ }).click();
  await expect(log).toContainText('Stopped.');
  await expect(edit).not.toHaveAttribute('aria-disabled');

  await log.getByRole('button', { name: 'Continue' }).click();
  await expect(log).toContainText('and that is the end.');
  await expect(log.getByRole('button', { name: 'Continue' })).toHaveCount(0);
});

test('chat settings: system prompt, temperature, turns, tool errors and manual mode are set in a dialog that explains bad input', async ({ app }) => {
  const { page } = app;
  const { api, chatId } = await openScriptedChat(app, undefined);
  await page.getByRole('button', { name: 'Chat settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Chat settings' });
  await expect(dialog.getByRole('textbox', { name: 'System prompt' })).toBeFocused();
  await page.keyboard.type('Answer like a pirate.');

  const temperature = dialog.getByRole('textbox', { name: 'Temperature' });
  await temperature.click();
  await page.keyboard.type('3');
  await page.keyboard.press('Tab');
  await expect(dialog.getByText('Use a number from 0 to 2 (Anthropic takes 0 to 1).')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();
  await temperature.click();
  await page.keyboard.press('End');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('0.4');
  await expect(dialog.getByText(/Use a number from 0 to 2/)).toBeHidden();

  const turns = dialog.getByRole('textbox', { name: 'Max model turns per message' });
  await turns.press('Control+a');
  await turns.pressSequentially('3');
  await dialog.getByRole('radio', { name: 'Stop the run' }).check();
  await dialog.getByRole('checkbox', { name: /^Manual: nothing the model calls runs/ }).check();
  // The chat's own hooks: JSON that breaks off is said and not saved; then a block typed whole.
  const hooks = dialog.getByRole('textbox', { name: 'Hooks of this chat (JSON)' });
  await hooks.click();
  await page.keyboard.type('{"PreToolUse": [');
  await page.keyboard.press('Tab');
  await expect(dialog.getByText(/This is not JSON, so nothing was saved/)).toBeVisible();
  await hooks.press('Control+a');
  // A Cursor hook file, as it is: the first Save reads it into Claude Code's shape for the person to read, the second saves it.
  await page.keyboard.type('{"version": 1, "hooks": {"preToolUse": [{"command": "node guard.mjs", "matcher": "calculator"}], "afterFileEdit": [{"command": "./format.sh"}]}}');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByText(/Read as Cursor hooks and written below in Claude Code's format/)).toBeVisible();
  await expect(dialog.getByText(/afterFileEdit/)).toBeVisible();
  await expect(hooks).toHaveValue(/"PreToolUse"/);
  await dialog.screenshot(shot('chat-settings'));
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  const saved = (await api('GET', `/chats/${chatId}`)) as Record<string, unknown>;
  expect(saved).toMatchObject({ system: 'Answer like a pirate.', temperature: 0.4, maxTurns: 3, onToolError: 'halt', toolRuns: 'manual' });
  expect(saved.hooks).toEqual({ PreToolUse: [{ matcher: 'calculator', hooks: [{ type: 'command', command: 'node guard.mjs' }] }] });

  // Clearing the temperature goes back to the server's default.
  await page.getByRole('button', { name: 'Chat settings' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Temperature' })).toHaveValue('0.4');
  await dialog.getByRole('textbox', { name: 'Temperature' }).press('Control+a');
  await dialog.getByRole('textbox', { name: 'Temperature' }).press('Backspace');
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  expect(await api('GET', `/chats/${chatId}`)).not.toHaveProperty('temperature');

  await page.setViewportSize({ width: 1000, height: 700 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByRole('button', { name: 'Chat settings' }).click();
  await page.screenshot(shot('chat-settings-narrow-dark'));
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('a structured answer: a schema set in Chat settings, an answer that misses it asked for again, the JSON shown as a tree to copy', async ({ app, context }) => {
  const { page } = app;
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const { api, chatId } = await openScriptedChat(app, [{ text: 'Paris, about 2 million people.' }, { text: '{"city": "Paris", "population": 2100000}' }]);
  await page.getByRole('button', { name: 'Chat settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Chat settings' });
  await dialog.getByRole('radio', { name: 'JSON that matches a schema' }).check();
  await replaceMonacoText(page, 'Answer schema', '{"type": "object",, "required": ["city"]}');
  await expect(dialog.getByText('The schema is not valid JSON yet: check its brackets, quotes and commas.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();
  await replaceMonacoText(page, 'Answer schema', '{"type": "object", "properties": {"city": {"type": "string"}, "population": {"type": "integer"}}, "required": ["city", "population"]}');
  await expect(dialog.getByText(/The schema is not valid JSON yet/)).toBeHidden();
  await dialog.screenshot(shot('chat-settings-answer-schema'));
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  expect(((await api('GET', `/chats/${chatId}`)) as { answerSchema?: unknown }).answerSchema).toMatchObject({ required: ['city', 'population'] });

  await send(page, 'Biggest city in France?');
  const answer = page.getByRole('region', { name: 'JSON answer' });
  await expect(answer).toContainText('"city": "Paris"');
  await expect(answer).toContainText('"population": 2100000');
  // The first answer was text; the model was asked once more and its second answer is the JSON.
  await expect(page.getByRole('log', { name: 'Messages' })).toContainText('Paris, about 2 million people.');
  await expect(page.getByRole('log', { name: 'Messages' })).toContainText('Not the JSON this chat asks for (the answer is not JSON).');
  await answer.getByRole('button', { name: 'Copy JSON' }).click();
  expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual({ city: 'Paris', population: 2100000 });
  await page.screenshot(shot('chat-structured-answer'));
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.screenshot(shot('chat-structured-answer-narrow-dark'));

  // Back to text.
  await page.getByRole('button', { name: 'Chat settings' }).click();
  await expect(dialog.getByRole('radio', { name: 'JSON that matches a schema' })).toBeChecked();
  await dialog.getByRole('radio', { name: 'Text' }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  expect(await api('GET', `/chats/${chatId}`)).not.toHaveProperty('answerSchema');
  expect(app.consoleErrors).toEqual([]);
});

test('a chat nearing its model’s input size says so before sending, and dropping old tool results makes room; the cards keep them', async ({ app }) => {
  const readings = Array.from({ length: 300 }, (_, hour) => ({ hour, temp: 20 + (hour % 5), note: 'steady westerly wind' }));
  const { target, close } = await startHttpTarget((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ readings })));
  const gemini = await startFakeGemini(
    [
      geminiReply({ calls: [{ name: 'forecast', args: { city: 'Oslo' } }] }),
      geminiReply({ text: ['Steady.'] }),
      geminiReply({ calls: [{ name: 'forecast', args: { city: 'Oslo' } }] }),
      geminiReply({ text: ['Still steady.'] }),
      geminiReply({ text: ['You are welcome.'] }),
    ],
    { models: [{ name: 'gemini-2.5-flash', inputTokenLimit: 8_000 }] },
  );
  try {
    const api = hostApi(app.host);
    const bundleID = await putHttpToolBundle(api, {
      target,
      bundle: { slug: 'weather', displayName: 'Weather' },
      slug: 'forecast',
      tool: { displayName: 'Forecast', argSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, impl: { method: 'GET', urlTemplate: `http://${target}/forecast` } },
    });
    await api('PUT', '/providers/gemini', { kind: 'gemini', displayName: 'Gemini', baseURL: gemini.url, apiKey: 'AIza-e2e' });
    await api('POST', '/chats', { providerId: 'gemini', model: 'gemini-2.5-flash', title: 'Forecasts', tools: { mode: 'auto', selected: [{ bundleID, slug: 'forecast', version: 'v1' }] } });
    const { page } = app;
    await page.goto(app.host.url);
    await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: /^Forecasts/ }).click();
    const log = page.getByRole('log', { name: 'Messages' });
    await send(page, 'Oslo today?');
    await expect(log).toContainText('Steady.');
    await send(page, 'And now?');
    await expect(log).toContainText('Still steady.');

    const notice = page.getByRole('status').filter({ hasText: 'gemini-2.5-flash takes' });
    await expect(notice).toContainText(/This chat nears what gemini-2\.5-flash takes: ~[\d,]+ tokens .* of 8,000\./);
    await page.screenshot(shot('context-notice'));
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 1000, height: 700 });
    await page.screenshot(shot('context-notice-narrow-dark'));
    await notice.getByRole('button', { name: /^Drop 1 old tool result \(~[\d,]+ tokens\)$/ }).click();
    await expect(notice).toBeHidden();
    const cards = log.getByRole('article', { name: 'Tool call Forecast' });
    await expect(cards.first()).toContainText('removed from the model’s context');
    await expect(cards.last()).not.toContainText('removed from the model’s context');
    await send(page, 'Thanks');
    await expect(log).toContainText('You are welcome.');
    expect(JSON.stringify(gemini.requests.at(-1)!.body.contents)).toMatch(/\[result of Forecast, \d+ KB, removed from context\]/);
    expect(app.consoleErrors).toEqual([]);
  } finally {
    close();
    await gemini.close();
  }
});

test('chat list: search by words in titles and messages, pin to the top, relative times; export as Markdown and JSON', async ({ app }) => {
  const { page } = app;
  const { api, chatId } = await openScriptedChat(app, undefined);
  await api('POST', '/chats', { providerId: 'script', model: 'scripted', title: 'Groceries' });
  await send(page, 'Where is the Eiffel tower?');
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log).toContainText('You said: Where is the Eiffel tower?');
  const nav = page.getByRole('navigation', { name: 'Chats' });
  await expect(nav.getByRole('button', { name: /^Groceries/ })).toContainText('just now');

  await nav.getByRole('searchbox', { name: 'Search chats' }).pressSequentially('eiffel');
  const results = nav.getByRole('list', { name: 'Search results' });
  await expect(results.getByRole('button')).toHaveCount(1);
  await expect(results.getByRole('button')).toContainText('Where is the Eiffel tower?');
  await nav.getByRole('searchbox', { name: 'Search chats' }).pressSequentially(' nothing');
  await expect(nav.getByText('No chat contains “eiffel nothing”.')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(nav.getByRole('searchbox', { name: 'Search chats' })).toHaveValue('');

  // Pinning puts a chat in its own group at the top.
  await nav.getByRole('button', { name: /^Groceries/ }).hover();
  await nav.getByRole('button', { name: 'Pin Groceries' }).click();
  await expect(nav.getByRole('list', { name: 'Pinned' }).getByRole('button', { name: /^Groceries/ })).toBeVisible();
  await page.screenshot(shot('chat-list-pinned'));
  // In a narrow window the row's hidden actions leave the title its width: "Test chat" stays on one line.
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.emulateMedia({ colorScheme: 'dark' });
  const title = nav.getByRole('button', { name: /^Test chat/ }).locator('.list__title');
  expect((await title.boundingBox())!.height).toBeLessThan(26);
  await nav.getByRole('button', { name: /^Groceries/ }).hover({ position: { x: 20, y: 12 } });
  await expect(nav.getByRole('button', { name: 'Unpin Groceries' })).toBeVisible();
  await page.screenshot(shot('chat-list-narrow-dark'));
  expect(((await api('GET', '/chats')) as { chats: { id: string; pinned: boolean }[] }).chats.find((chat) => chat.id !== chatId)?.pinned).toBe(true);

  await nav.getByRole('button', { name: /^Test chat/ }).click();
  await page.locator('summary[aria-label="Export chat"]').click();
  const [markdown] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Markdown (.md)' }).click()]);
  expect(markdown.suggestedFilename()).toBe('Test-chat.md');
  const text = await readDownload(markdown);
  expect(text).toContain('# Test chat\n\n- Provider: script\n- Model: scripted');
  expect(text).toContain('## You\n\nWhere is the Eiffel tower?');
  expect(text).toContain('You said: Where is the Eiffel tower?');

  await page.locator('summary[aria-label="Export chat"]').click();
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'JSON (.json)' }).click()]);
  const exported = JSON.parse(await readDownload(json)) as { id: string; messages: unknown[] };
  expect(exported.id).toBe(chatId);
  expect(exported.messages).toHaveLength(2);

  // The menu closes when the person goes elsewhere: it does not stay open under the next dialog.
  await page.locator('summary[aria-label="Export chat"]').click();
  await expect(page.getByRole('button', { name: 'Markdown (.md)' })).toBeVisible();
  await page.getByRole('button', { name: 'Chat settings' }).click();
  await expect(page.getByRole('button', { name: 'Markdown (.md)' })).toBeHidden();
});

async function readDownload(download: Download): Promise<string> {
  return (await readDownloadBytes(download)).toString('utf8');
}

async function readDownloadBytes(download: Download): Promise<Buffer> {
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

test('two calls waiting for approval say "1 of 2", and the request shown follows the edited arguments', async ({ app }) => {
  const { page } = app;
  const { target, close } = await startHttpTarget((request, response) => response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ url: request.url })));
  try {
    const bundleID = await putHttpToolBundle(hostApi(app.host), {
      target,
      bundle: { slug: 'weather', displayName: 'Weather' },
      slug: 'forecast',
      tool: {
        displayName: 'Forecast',
        requiresApproval: true,
        argSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        impl: { method: 'GET', urlTemplate: `http://${target}/forecast`, query: { city: '${city}' } },
      },
    });
    const forecast = (city: string) => ({ name: 'forecast', args: { city } });
    await openScriptedChat(app, [{ toolCalls: [forecast('Oslo'), forecast('Bergen')] }, { text: 'Both done.' }], [{ bundleID, slug: 'forecast', version: 'v1' }]);
    await send(page, 'Forecasts?');

    const first = page.getByRole('dialog', { name: 'Approve tool call (1 of 2)' });
    await expect(first).toBeVisible();
    const request = first.getByRole('region', { name: 'Request that will be sent' });
    await expect(request).toContainText(`GET http://${target}/forecast?city=Oslo`);
    // Edited arguments: the request shown is built again from them.
    await first.getByTestId('json-editor-Arguments').getByRole('textbox', { name: 'Arguments' }).focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText('{"city": "Tromsø"}');
    await expect(request).toContainText(`GET http://${target}/forecast?city=Troms%C3%B8`);
    await page.screenshot(shot('approval-edited-request'));
    await first.getByRole('button', { name: 'Allow once' }).click();

    const second = page.getByRole('dialog', { name: 'Approve tool call' });
    await expect(second.getByRole('region', { name: 'Request that will be sent' })).toContainText('city=Bergen');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('log', { name: 'Messages' })).toContainText('Both done.');
  } finally {
    close();
  }
});

test('cards and labels say what they are: name and key argument, questions answered inline, code language, waiting chats on the Chat item, tools of a switched-off bundle', async ({ app }) => {
  const { page } = app;
  const CORE = '01a2008d-7400-7000-8000-03e7f090115c';
  const core = (slug: string, extra: Record<string, unknown> = {}) => ({ bundleID: CORE, slug, version: 'v1', ...extra });
  const { api } = await openScriptedChat(
    app,
    [
      { toolCalls: [{ name: 'calculator', args: { expression: '2 + 3' } }, { name: 'ask-user', args: { question: 'Which unit?', choices: ['cm', 'inch'] } }] },
      { text: 'In TypeScript:\n\n```ts\nconst total = 2 + 3;\n```' },
    ],
    [core('calculator'), core('ask-user')],
  );
  await send(page, 'Add two and three');
  await page.getByRole('dialog', { name: 'Question from the model' }).getByRole('button', { name: 'inch' }).click();
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log).toContainText('In TypeScript:');
  await expect(page.getByRole('article', { name: 'Tool call Calculator' }).locator('header')).toContainText('Calculator · 2 + 3');
  const asked = page.getByRole('article', { name: 'Tool call Ask the user' });
  await expect(asked).toContainText('AskedWhich unit?');
  await expect(asked).toContainText('You answeredinch');
  await expect(log.locator('.md-code__language')).toHaveText('ts');
  await expect(log.getByRole('button', { name: 'Copy ts code' })).toBeVisible();
  await expect(page.getByLabel('Model', { exact: true })).toHaveValue('scripted');
  await page.screenshot(shot('cards-and-labels'));

  // A chat that waits for an approval shows on the Chat item from another screen.
  await api('PUT', '/providers/waits', { kind: 'scripted', displayName: 'Waits', script: [{ toolCalls: [{ name: 'calculator', args: { expression: '1 + 1' } }] }] });
  const waiting = (await api('POST', '/chats', { providerId: 'waits', model: 'scripted', title: 'Needs you', tools: { mode: 'auto', selected: [core('calculator', { requiresApproval: true })] } })) as { id: string };
  await page.keyboard.press('Control+2');
  await api('POST', `/chats/${waiting.id}/messages`, { content: 'go' });
  const chatItem = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: /Chat/ });
  await expect(chatItem).toHaveAccessibleName(/1 chat waits for you/);
  await expect(chatItem.locator('.sidebar__badge')).toHaveText('1');

  // Tools of a switched-off bundle do not show "on" switches.
  const bundles = page.getByRole('region', { name: 'Bundles' });
  await bundles.getByRole('switch', { name: /Core/ }).click();
  await bundles.getByRole('button', { name: /^Core/ }).click();
  const tools = page.getByRole('region', { name: 'Tools' });
  await expect(tools.getByText('Bundle is off').first()).toBeVisible();
  await expect(tools.getByRole('switch', { name: /^Enable tool/ })).toHaveCount(0);
  await page.screenshot(shot('bundle-off'));
});

test('the hooks that ran on a chat are shown where they ran: SessionStart as it starts, UserPromptSubmit under the message, Stop under the answer', async ({ app }) => {
  const { page } = app;
  const api = hostApi(app.host);
  // Hooks that let everything through, as a logger does; each prints nothing and exits 0.
  const quiet = [{ hooks: [{ type: 'command', command: 'exit 0' }] }];
  await api('PATCH', '/settings', { hooks: { SessionStart: quiet, UserPromptSubmit: quiet, Stop: quiet } });
  await openScriptedChat(app, undefined);
  const welcome = page.locator('.chat-pane__welcome');
  await welcome.getByText('Hooks', { exact: true }).click();
  await expect(welcome.getByText(/SessionStart · continue/)).toBeVisible();
  await send(page, 'Hello hooks');
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log).toContainText('You said: Hello hooks');
  const user = log.locator('.message--user');
  const answer = log.locator('.message--assistant');
  // The chat's start shows above its first message once there is one.
  await expect(log.getByText('Hooks', { exact: true })).toHaveCount(3);
  for (const summary of await log.getByText('Hooks', { exact: true }).all()) await summary.click();
  await expect(log.getByText(/SessionStart · continue/)).toBeVisible();
  await expect(user.getByText(/UserPromptSubmit · continue/)).toBeVisible();
  await expect(answer.getByText(/Stop · continue/)).toBeVisible();
  await expect(answer.getByText('exit 0')).toBeVisible();
  await page.screenshot(shot('chat-hook-runs'));
});

test('a phone photo taken upright (its EXIF says to turn it) shows upright in the message box', async ({ app }) => {
  const { page } = app;
  await openScriptedChat(app, undefined);
  const message = page.getByRole('textbox', { name: 'Message' });
  await message.evaluate(async (element) => {
    // 400 × 200, left half red and right half blue, saved with EXIF orientation 6 (turn 90° clockwise), as phones save.
    const canvas = new OffscreenCanvas(400, 200);
    const context = canvas.getContext('2d')!;
    for (const [color, left] of [['#ff0000', 0], ['#0000ff', 200]] as const) {
      context.fillStyle = color;
      context.fillRect(left, 0, 200, 200);
    }
    const plain = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/jpeg' })).arrayBuffer());
    const tiff = [0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0];
    const payload = [0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff];
    const app1 = [0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 255, ...payload];
    const photo = new Uint8Array(plain.length + app1.length);
    photo.set(plain.subarray(0, 2));
    photo.set(app1, 2);
    photo.set(plain.subarray(2), 2 + app1.length);
    const data = new DataTransfer();
    data.items.add(new File([photo], 'upright.jpg', { type: 'image/jpeg' }));
    element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
  const thumb = page.locator('.composer img.file-chip__thumb');
  // Portrait, 32 × 64, and its top is the photo's left (red): turned as its EXIF says.
  await expect.poll(() => thumb.evaluate((image: HTMLImageElement) => `${image.naturalWidth}×${image.naturalHeight}`)).toBe('32×64');
  const top = await thumb.evaluate((image: HTMLImageElement) => {
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    return Array.from(context.getImageData(16, 4, 1, 1).data.slice(0, 3));
  });
  expect(top[0]).toBeGreaterThan(200);
  expect(top[2]).toBeLessThan(60);
});

test("the person's files: a picture picked with the paper clip (made smaller before it leaves), a CSV pasted, a fake picture dropped and refused; sent, shown under the message, opened whole", async ({ app }) => {
  const { page } = app;
  const { api, chatId } = await openScriptedChat(app, undefined);
  // A 3000 × 2000 photo, drawn by the browser as a camera would save it.
  const photo = await page.evaluate(async () => {
    const canvas = new OffscreenCanvas(3000, 2000);
    const context = canvas.getContext('2d')!;
    context.fillStyle = '#2b6cb0';
    context.fillRect(0, 0, 3000, 2000);
    context.fillStyle = '#f6e05e';
    context.fillRect(600, 400, 1800, 1200);
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.9 });
    const bytes = new Uint8Array(await blob.arrayBuffer());
    return Array.from(bytes);
  });
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Attach files' }).click();
  await (await chooser).setFiles({ name: 'beach.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(photo) });
  const box = page.locator('.composer').getByRole('list', { name: 'Attached files' });
  await expect(box.getByText('beach.jpg')).toBeVisible();
  // Its preview is a small picture made for the box (64 pixels along its longer side), not the photo decoded whole.
  await expect.poll(() => box.locator('img.file-chip__thumb').evaluate((image: HTMLImageElement) => `${image.naturalWidth}×${image.naturalHeight}`)).toBe('64×43');
  // The scripted model sees no pictures: the person is told before sending.
  await expect(page.getByRole('status').filter({ hasText: 'This model does not take pictures' })).toBeVisible();

  // A CSV pasted into the message box, as copied from a file manager.
  const message = page.getByRole('textbox', { name: 'Message' });
  const paste = (name: string, type: string, text: string) =>
    message.evaluate(
      (element, file) => {
        const data = new DataTransfer();
        data.items.add(new File([file.text], file.name, { type: file.type }));
        element.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      },
      { name, type, text },
    );
  await paste('temps.csv', 'text/csv', 'city,temp\nLima,19\n');
  await expect(box.getByText('temps.csv')).toBeVisible();
  // An executable named as a picture, dropped on the chat: refused with its name, nothing attached.
  const dropped = await page.evaluateHandle(() => {
    const data = new DataTransfer();
    data.items.add(new File([new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0])], 'cat.png', { type: 'image/png' }));
    return data;
  });
  await page.locator('.chat-pane').dispatchEvent('dragover', { dataTransfer: dropped });
  await expect(page.getByText('Drop files to attach them')).toBeVisible();
  await page.locator('.chat-pane').dispatchEvent('drop', { dataTransfer: dropped });
  await expect(page.getByRole('alert')).toContainText('cat.png: Toolbelt takes pictures');
  await expect(box.getByRole('listitem')).toHaveCount(2);
  await page.screenshot(shot('files-composer'));

  // Taken out and pasted again, by keyboard: the remove button is reached with Tab.
  await box.getByRole('button', { name: 'Remove temps.csv' }).focus();
  await page.keyboard.press('Enter');
  await expect(box.getByText('temps.csv')).toBeHidden();
  await paste('temps.csv', 'text/csv', 'city,temp\nLima,19\n');
  // The photo shows at once, as it is, while a worker makes it smaller; the message waits for it.
  await expect(box.getByText('Making it smaller…')).toHaveCount(0);
  await message.click();
  await page.keyboard.type('What is in these?');
  await page.keyboard.press('Enter');
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log).toContainText('You said: What is in these?');
  await expect(box).toBeHidden();
  const sent = log.getByRole('list', { name: 'Attached files' });
  await expect(sent.getByRole('button', { name: 'Open beach.jpg' })).toBeVisible();
  // The picture left the window 2048 pixels wide (drawn again, so nothing but its pixels went).
  const chat = (await api('GET', `/chats/${chatId}`)) as { messages: { files?: { sha256: string; name: string; bytes: number }[] }[] };
  const picture = chat.messages[0]!.files!.find((file) => file.name === 'beach.jpg')!;
  const kept = (await api('GET', `/chats/${chatId}/files/${picture.sha256}`)) as { mediaType: string; dataBase64: string };
  const width = pictureSize(Buffer.from(kept.dataBase64, 'base64'), kept.mediaType)?.width;
  expect(width).toBe(2048);

  // Exported with its files beside the Markdown, which links them.
  await page.locator('summary[aria-label="Export chat"]').click();
  const [archive] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Markdown with its files (.zip)' }).click()]);
  expect(archive.suggestedFilename()).toMatch(/\.zip$/);
  const unpacked = unzipSync(await readDownloadBytes(archive));
  expect(Object.keys(unpacked).sort()).toEqual([archive.suggestedFilename().replace(/\.zip$/, '.md'), 'files/beach.jpg', 'files/temps.csv']);
  const exported = strFromU8(unpacked[archive.suggestedFilename().replace(/\.zip$/, '.md')]!);
  expect(exported).toContain('![beach.jpg](<files/beach.jpg>)');
  expect(exported).toContain('[temps.csv](<files/temps.csv>)');
  expect(strFromU8(unpacked['files/temps.csv']!)).toBe('city,temp\nLima,19\n');
  expect(Buffer.from(unpacked['files/beach.jpg']!).equals(Buffer.from(kept.dataBase64, 'base64'))).toBe(true);

  // Opened whole, closed with Esc: focus goes back to the file.
  await sent.getByRole('button', { name: 'Open temps.csv' }).click();
  const viewer = page.getByRole('dialog', { name: 'temps.csv' });
  await expect(viewer).toContainText('Lima,19');
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
  await expect(sent.getByRole('button', { name: 'Open temps.csv' })).toBeFocused();
  await sent.getByRole('button', { name: 'Open beach.jpg' }).click();
  await expect(page.getByRole('dialog', { name: 'beach.jpg' }).getByRole('img', { name: 'beach.jpg' })).toBeVisible();
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot(shot('files-viewer-narrow-dark'));
  await page.keyboard.press('Escape');
  await page.screenshot(shot('files-sent-narrow-dark'));
});
