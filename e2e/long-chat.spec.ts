import { expect, test } from './fixtures/app.js';
import { typeOver } from './fixtures/typing.js';

test.use({ seedChat: 2_000 });

test('a chat of 2,000 messages opens at its end and renders only what is on screen', async ({ app }) => {
  const { page } = app;
  await page.goto(app.host.url);
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: /^Long chat/ }).click();
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log).toContainText('Answer 1000 with bold text');
  // Virtualized: a screenful of rows in the page, not two thousand.
  expect(await log.locator('.message-list__row').count()).toBeLessThan(40);

  await log.focus();
  await page.keyboard.press('Home');
  await expect(log).toContainText('Question 1');
  await expect(log).not.toContainText('Answer 1000');
  await page.keyboard.press('End');
  await expect(log).toContainText('Answer 1000 with bold text');

  // New messages still arrive at the bottom of a long chat.
  await typeOver(page.getByRole('textbox', { name: 'Message' }), 'One more');
  await page.keyboard.press('Enter');
  await expect(log).toContainText('You said: One more');
  expect(app.consoleErrors).toEqual([]);
});
