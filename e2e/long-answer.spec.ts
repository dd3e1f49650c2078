import { expect, test } from './fixtures/app.js';
import { openScriptedChat, send } from './fixtures/chat.js';
import { shot } from './fixtures/shots.js';

/** An answer of 120 sections (heading, paragraph, list, fenced code): some 60,000 characters. */
function longAnswer(): string {
  return Array.from({ length: 120 }, (_, section) => {
    const paragraph = Array.from({ length: 60 }, (_, index) => `word${section}x${index}`).join(' ');
    return `## Part ${section}\n\n${paragraph}\n\n- first point ${section}\n- **second** point\n\n\`\`\`ts\nconst part${section} = ${section} * 2;\n\`\`\`\n`;
  }).join('\n');
}

test('a long answer is drawn as Markdown where the reader looks: as it streams, and when opened, its end at once and its beginning once scrolled to', async ({ app }) => {
  const { page } = app;
  await openScriptedChat(app, [{ text: longAnswer() }]);
  await send(page, 'Write a lot');
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log).toHaveAttribute('aria-busy', 'false');
  // The end, in view: headings, lists and highlighted code with their copy buttons.
  await expect(log.getByRole('heading', { name: 'Part 119' })).toBeVisible();
  await expect(log.getByRole('button', { name: 'Copy ts code' }).last()).toBeVisible();
  await expect(log.locator('.hljs-keyword').last()).toHaveText('const');
  // What streamed past in bursts (waiting in stand-ins of a few blocks, given their own a frame at a time) is
  // drawn where the reader goes: the beginning, then the end again.
  await log.focus();
  await page.keyboard.press('Home');
  await expect(log.getByRole('heading', { name: 'Part 0', exact: true })).toBeVisible();
  await expect(log.getByRole('listitem').filter({ hasText: 'first point 1' }).first()).toBeVisible();
  await page.keyboard.press('End');
  await expect(log.getByRole('heading', { name: 'Part 119' })).toBeVisible();

  // Opened again (a reload), the parts far above the end wait as plain text until they come near.
  await page.reload();
  await page.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: /^Test chat/ }).click();
  await expect(log.getByRole('heading', { name: 'Part 119' })).toBeVisible();
  const waiting = (part: number) => log.locator('.markdown__pending').filter({ hasText: new RegExp(`^## Part ${part}\\s*$`) });
  await expect(waiting(60)).toHaveCount(1);
  await expect(log.getByRole('heading', { name: 'Part 60', exact: true })).toHaveCount(0);

  // Scrolled to, a part is drawn, and its plain text is gone.
  await waiting(60).scrollIntoViewIfNeeded();
  await expect(log.getByRole('heading', { name: 'Part 60', exact: true })).toBeVisible();
  await expect(log.getByRole('listitem').filter({ hasText: 'first point 60' })).toBeVisible();
  await expect(waiting(60)).toHaveCount(0);
  await page.screenshot(shot('long-answer-middle'));

  // Home goes to the beginning, drawn as well.
  await log.focus();
  await page.keyboard.press('Home');
  await expect(log.getByRole('heading', { name: 'Part 0', exact: true })).toBeVisible();
  await expect(waiting(0)).toHaveCount(0);
  expect(app.consoleErrors).toEqual([]);
});
