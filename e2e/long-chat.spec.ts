import { expect, test } from './fixtures/app.js';
import { typeOver } from './fixtures/typing.js';
import { hostApi } from './fixtures/api.js';
import { shot } from './fixtures/shots.js';

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

test('sending while scrolled up goes to the end; new content below the view offers "Jump to latest"', async ({ app }) => {
  const { page } = app;
  await page.goto(app.host.url);
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: /^Long chat/ }).click();
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log).toContainText('Answer 1000 with bold text');
  const jump = page.getByRole('button', { name: 'Jump to latest' });

  // Up at the start, the person sends: the view goes to their message and the answer (defect 1: it stayed put).
  await log.focus();
  await page.keyboard.press('Home');
  await expect(log.getByText('Question 1', { exact: true })).toBeInViewport();
  await typeOver(page.getByRole('textbox', { name: 'Message' }), 'Sent from up there');
  await page.keyboard.press('Enter');
  await expect(log.getByText('You said: Sent from up there')).toBeInViewport();
  await expect(jump).toBeHidden();

  // Up again, and a message arrives that someone else sent (another window, a script): the view stays where the
  // reader is, and a button offers the way down.
  await log.focus();
  await page.keyboard.press('Home');
  await expect(log.getByText('Question 1', { exact: true })).toBeInViewport();
  const { chats } = (await hostApi(app.host)('GET', '/chats')) as { chats: { id: string; title: string }[] };
  await hostApi(app.host)('POST', `/chats/${chats.find((chat) => chat.title === 'Long chat')!.id}/messages`, { content: 'Sent from elsewhere' });
  await expect(jump).toBeVisible();
  await expect(log.getByText('Question 1', { exact: true })).toBeInViewport();
  await page.screenshot(shot('jump-to-latest'));
  await jump.click();
  await expect(log.getByText('You said: Sent from elsewhere')).toBeInViewport();
  await expect(jump).toBeHidden();
  expect(app.consoleErrors).toEqual([]);
});
