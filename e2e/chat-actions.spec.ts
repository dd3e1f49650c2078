import { expect, test } from './fixtures/app.js';
import { openScriptedChat, send } from './fixtures/chat.js';

const shot = (name: string) => ({ path: test.info().outputPath(`${name}.png`) });

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
  await log.getByRole('toolbar', { name: 'Message actions' }).first().getByRole('button', { name: 'Edit and send again' }).click();
  const editor = log.getByRole('form', { name: 'Edit message' }).getByRole('textbox', { name: 'Message' });
  await expect(editor).toBeFocused();
  await expect(editor).toHaveValue('Capital of Frnace?');
  // Esc leaves the message as it was.
  await page.keyboard.press('Escape');
  await expect(editor).toBeHidden();
  await expect(log).toContainText('You said: Thanks');
  await page.screenshot(shot('message-actions'));

  await first.hover();
  await log.getByRole('toolbar', { name: 'Message actions' }).first().getByRole('button', { name: 'Edit and send again' }).click();
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
  const edit = log.getByRole('button', { name: 'Edit and send again' });
  await expect(edit).toHaveAttribute('aria-disabled', 'true');
  await expect(edit).toHaveAttribute('title', /Wait for the answer, or stop it first/);
  await page.getByRole('button', { name: /Stop/ }).click();
  await expect(log).toContainText('Stopped.');
  await expect(edit).not.toHaveAttribute('aria-disabled');

  await log.getByRole('button', { name: 'Continue' }).click();
  await expect(log).toContainText('and that is the end.');
  await expect(log.getByRole('button', { name: 'Continue' })).toHaveCount(0);
});
