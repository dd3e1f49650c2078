import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { openAiTextReply, openAiToolCallReply, startFakeOpenAi } from '../testing/servers/fake-openai.js';
import { expect, test } from './fixtures/app.js';
import { hostApi } from './fixtures/api.js';
import { replaceMonacoText } from './fixtures/monaco.js';
import { openScriptedChat, send } from './fixtures/chat.js';
import { shot } from './fixtures/shots.js';
import { typeOver } from './fixtures/typing.js';

const CORE = '01a2008d-7400-7000-8000-03e7f090115c';
const core = (slug: string, extra: Record<string, unknown> = {}) => ({ bundleID: CORE, slug, version: 'v1', ...extra });

async function expectAccessible(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  expect(result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([]);
}

test('a first visit without providers points to Settings, and a new chat streams an answer', async ({ app }) => {
  const { page } = app;
  await page.goto(app.host.url);
  await expect(page.getByRole('heading', { name: 'No provider configured' })).toBeVisible();
  // New chat is disabled, looks it, and says why.
  const newChat = page.getByRole('button', { name: 'New chat' });
  await expect(newChat).toBeDisabled();
  expect(Number(await newChat.evaluate((element) => getComputedStyle(element).opacity))).toBeLessThan(0.6);
  await expect(page.getByText('New chat waits for a model provider: add one in Settings.')).toBeVisible();
  await page.getByRole('button', { name: 'Add one in Settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  // It lands on the form, not on the list where the form is one more click away.
  await expect(page.getByRole('form', { name: 'Add a provider' })).toBeVisible();

  await hostApi(app.host)('PUT', '/providers/script', {
    kind: 'scripted',
    displayName: 'Script',
    chunkDelayMs: 80,
    script: [{ text: `Here is **bold** text and \`code\`, ${'streamed word by word '.repeat(12)}until the end.` }],
  });
  await page.keyboard.press('Control+1');
  await page.keyboard.press('Control+Shift+O');
  // Written in Markdown, titled as it reads (defect 9: the list showed the asterisks).
  await send(page, 'Say **something**');
  const log = page.getByRole('log', { name: 'Messages' });
  // Part of the answer shows before all of it.
  await expect(log).toContainText('Here is');
  await expect(log).not.toContainText('until the end.');
  await page.screenshot(shot('chat-streaming'));
  await expect(log).toContainText('streamed word by word until the end.');
  await expect(log.locator('strong')).toHaveText('bold');
  await expect(page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: /^Say something/ })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Say something', exact: true })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot(shot('chat-answer'));
  expect(app.consoleErrors).toEqual([]);
  expect(app.offLoopback).toEqual([]);
});

test('a model tool call through the real OpenAI client runs and renders as a card, and the raw exchange shows what went over the wire', async ({ app }) => {
  const openai = await startFakeOpenAi([
    openAiToolCallReply([{ id: 'call_1', name: 'calculator', args: ['{"expression":', '"(2 + 3) * 4"}'] }]),
    openAiTextReply(['The answer ', 'is 20.']),
  ]);
  try {
    const api = hostApi(app.host);
    await api('PUT', '/providers/fake', { kind: 'openai', displayName: 'Fake OpenAI', baseURL: `${openai.url}/v1`, apiKey: 'sk-e2e' });
    await api('POST', '/chats', { providerId: 'fake', model: 'gpt-fake', title: 'Maths', tools: { mode: 'auto', selected: [core('calculator')] } });
    const { page } = app;
    await page.goto(app.host.url);
    await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: /^Maths/ }).click();
    await send(page, 'What is (2 + 3) * 4?');
    const card = page.getByRole('article', { name: 'Tool call Calculator' });
    await expect(card.getByRole('status')).toHaveText('Succeeded');
    await expect(page.getByRole('log', { name: 'Messages' })).toContainText('The answer is 20.');
    await card.getByText('Arguments and result').click();
    await expect(card).toContainText('"(2 + 3) * 4"');
    await expect(card).toContainText('20');
    await expect(page.getByRole('button', { name: /1 tool on · ~\d+ tokens/ })).toBeVisible();
    await page.screenshot(shot('chat-tool-call'));
    expect(openai.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(2);

    // The raw exchange: both requests of the run, the key masked, the answers as the server streamed them.
    await page.getByRole('button', { name: 'Raw exchange' }).click();
    const raw = page.getByRole('dialog', { name: 'Raw exchange' });
    await expect(raw.getByRole('list', { name: 'Requests of the run' }).getByRole('listitem')).toHaveCount(2);
    await expect(raw).toContainText(`POST ${openai.url}/v1/chat/completions`);
    // The body is in sight; the dozen header lines that hid it are folded above it, a click away.
    const request = raw.getByRole('group', { name: 'Request 1' });
    await expect(request.getByText('"content": "What is (2 + 3) * 4?"')).toBeVisible();
    await expect(request.getByText('authorization: •••')).toBeHidden();
    await request.getByText(/^Headers \(\d+\)$/).click();
    await expect(request.getByText('authorization: •••')).toBeVisible();
    await expect(raw.getByLabel('Response 1')).toContainText('"finish_reason":"tool_calls"');
    await expect(raw.getByLabel('Response 1')).toContainText('data: [DONE]');
    await expect(raw).not.toContainText('sk-e2e');
    await page.screenshot(shot('chat-raw-exchange'));
    await page.keyboard.press('Escape');
    await expect(raw).toBeHidden();
    expect(app.consoleErrors).toEqual([]);
  } finally {
    await openai.close();
  }
});

test('approval: allow, edit then allow, deny — and the dialog comes back after a reload', async ({ app }) => {
  const { page } = app;
  const calc = (expression: string) => ({ toolCalls: [{ name: 'calculator', args: { expression } }] });
  await openScriptedChat(app, [calc('1 + 1'), { text: 'first done' }, calc('2 + 2'), { text: 'second done' }, calc('3 + 3'), { text: 'third done' }], [
    core('calculator', { requiresApproval: true }),
  ]);

  await send(page, 'one');
  const dialog = page.getByRole('dialog', { name: 'Approve tool call' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('This chat asks before running this tool.');
  await expectAccessible(page);
  await page.screenshot(shot('approval'));
  // Focus starts on "Allow once": Enter allows.
  await expect(dialog.getByRole('button', { name: 'Allow once' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('log', { name: 'Messages' })).toContainText('first done');

  await send(page, 'two');
  await expect(dialog).toBeVisible();
  await page.reload();
  await expect(dialog).toBeVisible();
  await replaceMonacoText(page, 'Arguments', '{"expression": ""}');
  await expect(dialog.getByText('Expression: Must not be empty.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Allow once' })).toBeDisabled();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText('{"expression": "20 * 2"}');
  await expect(dialog.getByRole('button', { name: 'Allow once' })).toBeEnabled();
  await dialog.getByRole('button', { name: 'Allow once' }).click();
  await expect(page.getByRole('log', { name: 'Messages' })).toContainText('second done');
  const edited = page.getByRole('article', { name: 'Tool call Calculator' }).nth(1);
  await edited.getByText('Arguments and result').click();
  await expect(edited).toContainText('40');

  await send(page, 'three');
  await typeOver(dialog.getByRole('textbox', { name: /Reason if you deny/ }), 'not now');
  await dialog.getByRole('button', { name: 'Deny' }).click();
  const denied = page.getByRole('article', { name: 'Tool call Calculator' }).nth(2);
  await expect(denied.getByRole('status')).toHaveText('Denied');
  await expect(denied).toContainText('The user denied this call: not now');
  expect(app.consoleErrors).toEqual([]);
});

test('manual mode: each call the model makes waits for you, even across a reload, and the model hears back once all are settled', async ({ app }) => {
  const { page } = app;
  const { api, chatId } = await openScriptedChat(app, [{ toolCalls: [{ name: 'calculator', args: { expression: '1 + 1' } }, { name: 'calculator', args: { expression: '2 + 2' } }] }, { text: 'both settled' }], [core('calculator')]);
  await api('PATCH', `/chats/${chatId}`, { toolRuns: 'manual' });
  await send(page, 'add twice');
  const first = page.getByRole('dialog', { name: 'Approve tool call (1 of 2)' });
  await expect(first).toContainText('manual mode');
  await expect(first).toContainText('"1 + 1"');
  await expect(first.getByRole('button', { name: 'Allow once' })).toBeFocused();
  await page.keyboard.press('Enter');
  const log = page.getByRole('log', { name: 'Messages' });
  // The first ran; the model waits for the second.
  await expect(page.getByRole('dialog', { name: 'Approve tool call' })).toContainText('"2 + 2"');
  await expect(log).not.toContainText('both settled');
  await page.reload();
  const second = page.getByRole('dialog', { name: 'Approve tool call' });
  await expect(second).toContainText('"2 + 2"');
  await page.keyboard.press('Escape');
  await expect(log).toContainText('both settled');
  const cards = page.getByRole('article', { name: 'Tool call Calculator' });
  await expect(cards.nth(0).getByRole('status')).toHaveText('Succeeded');
  await expect(cards.nth(1).getByRole('status')).toHaveText('Denied');
  expect(app.consoleErrors).toEqual([]);
});

test('Esc denies an approval', async ({ app }) => {
  const { page } = app;
  await openScriptedChat(app, [{ toolCalls: [{ name: 'current-time', args: {} }] }, { text: 'ok' }], [core('current-time', { requiresApproval: true })]);
  await send(page, 'time?');
  const dialog = page.getByRole('dialog', { name: 'Approve tool call' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('article', { name: 'Tool call Current time' }).getByRole('status')).toHaveText('Denied');
});

test('the approval dialog by keyboard alone: Tab goes round its controls and never leaves it, a deny reason typed goes in its box, not the arguments', async ({ app }) => {
  const { page } = app;
  const { api, chatId } = await openScriptedChat(app, [{ toolCalls: [{ name: 'current-time', args: {} }] }, { text: 'ok' }], [core('current-time', { requiresApproval: true })]);
  await send(page, 'time?');
  const dialog = page.getByRole('dialog', { name: 'Approve tool call' });
  await expect(dialog).toBeVisible();
  const arguments_ = dialog.getByRole('textbox', { name: 'Arguments' });
  const before = await dialog.getByTestId('json-editor-Arguments').locator('.view-lines').innerText();
  // Forward through every control twice over: focus is always inside the dialog, never on the page behind.
  const seen = new Set<string>();
  for (let press = 0; press < 24; press++) {
    await page.keyboard.press('Tab');
    const where = await page.evaluate(() => {
      const active = document.activeElement;
      return { inDialog: active?.closest('dialog[open]') !== null && active !== null, name: active?.getAttribute('aria-label') ?? active?.textContent?.trim().slice(0, 40) ?? '' };
    });
    expect(where.inDialog).toBe(true);
    seen.add(where.name);
  }
  expect([...seen]).toEqual(expect.arrayContaining(['Allow once', 'Deny', 'Arguments']));
  // Backwards too.
  for (let press = 0; press < 12; press++) {
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate(() => document.activeElement?.closest('dialog[open]') !== null)).toBe(true);
  }
  // From Deny, the last control, Tab goes round to the dialog's first (the arguments), never out of it; the reason is
  // typed where it belongs, and the arguments stay as they were.
  await dialog.getByRole('button', { name: 'Deny' }).focus();
  await page.keyboard.press('Tab');
  await expect(arguments_).toBeFocused();
  await dialog.getByRole('textbox', { name: 'Reason if you deny (the model reads it)' }).focus();
  await page.keyboard.type('Not now, thanks');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Deny' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  expect(await dialog.getByTestId('json-editor-Arguments').count()).toBe(0);
  const chat = (await api('GET', `/chats/${chatId}`)) as { messages: { role: string; toolCalls?: { status: string; note?: string; args: unknown }[] }[] };
  const call = chat.messages.flatMap((message) => message.toolCalls ?? [])[0]!;
  expect(call).toMatchObject({ status: 'denied', args: {} });
  expect(JSON.stringify(call)).toContain('Not now, thanks');
  expect(before).toContain('{');
  // Focus went back to the message box.
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
});

test('ask-user: the question comes as a dialog and the answer goes back to the model', async ({ app }) => {
  const { page } = app;
  await openScriptedChat(app, [{ toolCalls: [{ name: 'ask-user', args: { question: 'Tea or coffee?', choices: ['Tea', 'Coffee'] } }] }, { text: 'Enjoy your drink.' }], [core('ask-user')]);
  await send(page, 'Something to drink?');
  const dialog = page.getByRole('dialog', { name: 'Question from the model' });
  await expect(dialog).toContainText('Tea or coffee?');
  await expectAccessible(page);
  await page.screenshot(shot('ask-user'));
  await dialog.getByRole('button', { name: 'Coffee' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('log', { name: 'Messages' })).toContainText('Enjoy your drink.');
  const card = page.getByRole('article', { name: 'Tool call Ask the user' });
  await card.getByText('Arguments and result').click();
  await expect(card).toContainText('Coffee');
});

test('Stop (and Esc) end a streaming answer, keeping what arrived', async ({ app }) => {
  const { page } = app;
  const long = Array.from({ length: 200 }, (_, index) => `word${index}`).join(' ');
  await openScriptedChat(app, [{ text: long }, { text: long }], [], 40);
  await send(page, 'Talk');
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log).toContainText('word3');
  await page.getByRole('button', { name: /Stop/ }).click();
  await expect(log).toContainText('Stopped.');
  await expect(log).not.toContainText('word199');
  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();

  await send(page, 'Again');
  await expect(log.getByText(/word3/).nth(1)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(log.getByText('Stopped.')).toHaveCount(2);
});

test('the + palette: search, keyboard choice, checked form, run into the chat', async ({ app }) => {
  const { page } = app;
  await openScriptedChat(app, [{ text: 'I see you ran the calculator.' }]);
  // The + button beside the box opens the palette.
  await page.getByRole('button', { name: 'Run a tool' }).click();
  const palette = page.getByRole('dialog', { name: 'Tool palette' });
  await expect(palette.getByRole('listbox')).toBeVisible();
  await page.keyboard.type('calcul');
  await expect(palette.getByRole('option').first()).toContainText('Calculator');
  await expectAccessible(page);
  await page.screenshot(shot('palette'));
  await page.keyboard.press('Enter');

  const form = palette.getByRole('form', { name: 'Calculator' });
  await expect(form).toBeVisible();
  // Chosen with Enter, the first field has the focus: typing goes on there, and Enter runs.
  await expect(form.getByRole('textbox', { name: 'Expression' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(form.getByText('Required.')).toBeVisible();
  await page.keyboard.type('sqrt(16) + 1');
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();

  const card = page.getByRole('article', { name: 'Tool call Calculator' });
  await expect(card.getByRole('status')).toHaveText('Succeeded');
  await expect(card).toContainText('run by you');
  await expect(card).toContainText('5');
  const seesRun = page.getByRole('switch', { name: 'Model sees this on the next turn' });
  await expect(seesRun).toHaveAttribute('aria-checked', 'true');
  // Said in words beside the switch, not only in a tooltip; the words toggle it too.
  await page.getByText('Model sees this on the next turn', { exact: true }).click();
  await expect(seesRun).toHaveAttribute('aria-checked', 'false');
  await seesRun.press('Space');
  await expect(seesRun).toHaveAttribute('aria-checked', 'true');

  // Ctrl+K opens it too; a switched-off tool searched by its exact slug is explained, not hidden.
  await hostApi(app.host)('PATCH', `/tools/bundles/${CORE}/tools/current-time/version/v1`, { isEnabled: false });
  await page.keyboard.press('Control+k');
  await page.keyboard.type('current-time');
  // In the core's own words, the ones a run would be refused with.
  await expect(palette).toContainText('Current time is switched off. Switch it on to run it.');
  await page.keyboard.press('Escape');
  await expect(palette).toBeHidden();

  // From another screen too (defect 9): Ctrl+K goes to the chat and opens the palette there.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await page.keyboard.press('Control+k');
  await expect(palette).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Chat' })).toBeAttached();
  await page.keyboard.type('calcul');
  await expect(palette.getByRole('option').first()).toContainText('Calculator');
  await page.keyboard.press('Escape');
  await expect(palette).toBeHidden();
  expect(app.consoleErrors).toEqual([]);
});

test('the palette on a slow machine: Enter pressed before the search answers picks from the answer for what was typed, not from the list before', async ({ app }) => {
  const { page } = app;
  await openScriptedChat(app, [{ text: 'Done.' }]);
  // The search for what is typed answers only after Enter, as on a busy machine; the list for the empty box is already there.
  let answer = () => {};
  const enterPressed = new Promise<void>((resolve) => (answer = resolve));
  await page.route(/\/api\/tools\/tools\/search\?.*q=ca/, async (route) => {
    await enterPressed;
    await route.continue();
  });
  await page.getByRole('button', { name: 'Run a tool' }).click();
  const palette = page.getByRole('dialog', { name: 'Tool palette' });
  await expect(palette.getByRole('option').first()).toBeVisible();
  await expect(palette.getByRole('option').first()).not.toContainText('Calculator');
  await page.keyboard.type('calcul');
  await page.keyboard.press('Enter');
  answer();
  await expect(palette.getByRole('form', { name: 'Calculator' })).toBeVisible();
});

test('+slug key=value typed key by key: suggestions follow the typing, Tab completes, Enter runs; Esc sends a plain "+"', async ({ app }) => {
  const { page } = app;
  await openScriptedChat(app, [{ text: 'Noted.' }]);
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.pressSequentially('+calc');
  // The text stays in the box, which keeps focus; the suggestions filter as it is typed.
  await expect(box).toHaveValue('+calc');
  await expect(box).toBeFocused();
  const suggestions = page.getByRole('listbox', { name: 'Tool suggestions' });
  await expect(suggestions.getByRole('option').first()).toContainText('+calculator');
  await expect(page.getByRole('dialog', { name: 'Tool palette' })).toHaveCount(0);
  await page.screenshot(shot('quick-run-suggestions'));
  await page.keyboard.press('Tab');
  await expect(box).toHaveValue('+calculator ');
  await expect(suggestions).toHaveCount(0);
  await page.keyboard.type('expression="6 * 7"');
  await page.keyboard.press('Enter');
  const card = page.getByRole('article', { name: 'Tool call Calculator' });
  await expect(card.getByRole('status')).toHaveText('Succeeded');
  await expect(card).toContainText('42');
  await expect(box).toHaveValue('');

  // All typed, Enter at the end: the same run.
  await box.pressSequentially('+calculator expression=2*21');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('article', { name: 'Tool call Calculator' })).toHaveCount(2);

  // Missing arguments open the palette at that tool.
  await box.pressSequentially('+calculator ');
  await page.keyboard.press('Enter');
  const palette = page.getByRole('dialog', { name: 'Tool palette' });
  await expect(palette.getByRole('option').first()).toContainText('Calculator');
  await page.keyboard.press('Escape');

  // Esc closes the suggestions, and the "+" goes as a plain message; so does a leading "\+".
  await box.pressSequentially('+1');
  await expect(page.getByText('No enabled tool starts like that.')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByText('No enabled tool starts like that.')).toHaveCount(0);
  await page.keyboard.type(' for this idea');
  await page.keyboard.press('Enter');
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log.locator('.message--user').last()).toHaveText('+1 for this idea');
  await box.pressSequentially('\\+2 as well');
  await page.keyboard.press('Enter');
  await expect(log.locator('.message--user').last()).toHaveText('+2 as well');
  expect(app.consoleErrors).toEqual([]);
});

/** Settings → Providers → Add provider, as a person gets there. */
test('chats can be renamed, and deleted with undo', async ({ app }) => {
  const { page } = app;
  await openScriptedChat(app, []);
  const chats = page.getByRole('navigation', { name: 'Chats' });
  await chats.getByRole('button', { name: 'Rename Test chat' }).click();
  await typeOver(chats.getByRole('textbox', { name: 'Chat title' }), 'Renamed');
  await page.keyboard.press('Enter');
  await expect(chats.getByRole('button', { name: /^Renamed/ })).toBeVisible();
  await chats.getByRole('button', { name: 'Delete Renamed' }).click();
  await expect(chats.getByRole('button', { name: /^Renamed/ })).toBeHidden();
  await chats.getByRole('button', { name: 'Undo' }).click();
  await expect(chats.getByRole('button', { name: /^Renamed/ })).toBeVisible();
  await page.reload();
  await expect(chats.getByRole('button', { name: /^Renamed/ })).toBeVisible();
});

test('the tools panel chooses the tools a chat offers, with "ask before running" and aliases', async ({ app }) => {
  const { page } = app;
  const { api, chatId } = await openScriptedChat(app, [{ toolCalls: [{ name: 'maths', args: { expression: '1 + 2' } }] }, { text: 'done' }]);
  await page.getByRole('button', { name: 'No tools' }).click();
  const panel = page.getByRole('dialog', { name: 'Tools for this chat' });
  const summary = panel.locator('.tool-discovery__now');
  await expect(summary).toContainText('0 tools, all offered');
  await typeOver(panel.getByRole('textbox', { name: 'Search tools' }), 'calc');
  await panel.getByRole('checkbox', { name: /Calculator/ }).check();
  // The summary follows the boxes as they change, before Save.
  await expect(summary).toContainText('1 tool, all offered');
  await panel.getByRole('checkbox', { name: 'Ask before running' }).check();
  await typeOver(panel.getByRole('textbox', { name: /Name the model sees for Calculator/ }), 'maths');
  await expectAccessible(page);
  await page.screenshot(shot('tools-panel'));
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(panel).toBeHidden();
  await expect(page.getByRole('button', { name: /1 tool on/ })).toBeVisible();
  // Focus goes back to the button that opened the panel, not to the page.
  await expect(page.getByRole('button', { name: /1 tool on/ })).toBeFocused();
  expect(((await api('GET', `/chats/${chatId}`)) as { tools: unknown }).tools).toEqual({
    mode: 'auto',
    selected: [core('calculator', { as: 'maths', requiresApproval: true })],
  });

  await send(page, 'add');
  await expect(page.getByRole('dialog', { name: 'Approve tool call' })).toContainText('This chat asks before running this tool.');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('log', { name: 'Messages' })).toContainText('done');
});

test('a tool the chat never allows is struck out and refused with a sentence the model reads; a chat can stop when one tool keeps failing', async ({ app }) => {
  const { page } = app;
  const invalid = { toolCalls: [{ name: 'calculator', args: {} }] };
  const { api, chatId } = await openScriptedChat(app, [{ toolCalls: [{ name: 'calculator', args: { expression: '1 + 1' } }] }, { text: 'Fine, without it.' }, invalid, invalid, { text: 'not reached' }], [core('calculator')]);
  await page.getByRole('button', { name: /1 tool on/ }).click();
  const panel = page.getByRole('dialog', { name: 'Tools for this chat' });
  await panel.getByRole('checkbox', { name: 'Never allow', exact: true }).check();
  await expect(panel.locator('.tool-picker__name--denied')).toContainText('Calculator');
  await expect(panel).toContainText('0 selected · 1 never allowed');
  await page.screenshot(shot('tools-panel-denied'));
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(panel).toBeHidden();
  await expect(page.getByRole('button', { name: 'No tools · 1 never allowed' })).toBeVisible();

  await send(page, 'add one and one');
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log).toContainText('Fine, without it.');
  const card = page.getByRole('article', { name: 'Tool call calculator' });
  await expect(card.getByRole('status')).toHaveText('Denied');
  await expect(card).toContainText('The user does not allow the tool "calculator" in this chat, so it did not run.');

  // Allowed again, and the chat set to stop when one tool fails twice in a row.
  await page.getByRole('button', { name: 'No tools · 1 never allowed' }).click();
  await panel.getByRole('checkbox', { name: 'Never allow', exact: true }).uncheck();
  // And the model reads at most 4 KB of its results.
  await panel.getByRole('textbox', { name: "KB of Calculator's results the model reads" }).pressSequentially('4');
  await page.screenshot(shot('tools-panel-limit'));
  await panel.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('button', { name: 'Chat settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Chat settings' });
  await settings.getByRole('radio', { name: 'Go on, but stop when one tool fails' }).check();
  const count = settings.getByRole('textbox', { name: 'Failures in a row that stop the run' });
  await count.press('Control+a');
  await count.pressSequentially('2');
  await page.screenshot(shot('chat-settings-halt-after'));
  await settings.getByRole('button', { name: 'Save' }).click();
  await expect(settings).toBeHidden();
  await send(page, 'try again');
  await expect(page.getByText('Stopped because Calculator failed 2 times in a row')).toBeVisible();
  await expect(log).not.toContainText('not reached');
  expect(await api('GET', `/chats/${chatId}`)).toMatchObject({ onToolError: 'halt_after', toolErrorLimit: 2, tools: { selected: [core('calculator', { resultLimit: 4000 })] } });
});
