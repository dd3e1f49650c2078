import { expect, test } from './fixtures/app.js';
import { openScriptedChat, send } from './fixtures/chat.js';
import { shot } from './fixtures/shots.js';

const BUNDLE = '01a2008d-7400-7000-8000-00000000e2e1';
const CITIES = ['Oslo', 'Rome', 'Lima', 'Kyiv', 'Pune', 'Doha', 'Bern', 'Riga', 'Baku', 'Suva', 'Male', 'Apia'];
const KINDS = ['clock', 'weather', 'tides'];

test('a chat reaches a whole bundle and finds its tools by search: the panel says what is reachable, loaded and what it costs; the search is a card', async ({ app }) => {
  const { page } = app;
  const { api } = await openScriptedChat(app, [
    { toolCalls: [{ name: 'tool_search', args: { query: 'tides in Lima', limit: 2 } }] },
    { toolCalls: [{ name: 'lima-tides', args: {} }] },
    { text: 'High tide in Lima is at noon.' },
  ]);
  // A bundle of 36 tools: past what a chat offers all at once.
  await api('PUT', `/tools/bundles/${BUNDLE}`, { slug: 'world', displayName: 'World desk' });
  for (const city of CITIES) {
    for (const kind of KINDS) {
      const slug = `${city.toLowerCase()}-${kind}`;
      await api('PUT', `/tools/bundles/${BUNDLE}/tools/${slug}/version/v1`, {
        displayName: `${city} ${kind}`,
        description: `The ${kind} in ${city}, now.`,
        type: 'local',
        argSchema: { type: 'object', properties: {} },
        impl: { func: 'core.currentTime' },
      });
    }
  }

  await page.getByRole('button', { name: 'No tools' }).click();
  const panel = page.getByRole('dialog', { name: 'Tools for this chat' });
  await panel.getByRole('checkbox', { name: /World desk/ }).check();
  await panel.getByRole('combobox', { name: 'How the model gets them' }).selectOption('search');
  await panel.getByRole('button', { name: 'Save' }).click();
  await expect(panel).toBeHidden();
  await expect(page.getByRole('button', { name: /36 tools on · found by search/ })).toBeVisible();

  await send(page, 'When is high tide in Lima?');
  const log = page.getByRole('log', { name: 'Messages' });
  await expect(log).toContainText('High tide in Lima is at noon.');
  const search = page.getByRole('article', { name: 'Tool call Search tools' });
  await expect(search).toContainText('Searched for');
  await expect(search).toContainText('tides in Lima');
  await expect(search.getByRole('listitem').first()).toContainText('lima-tides');
  // Both found tools are the World desk's: it is said once, not on each line.
  await expect(search.getByText('All from World desk')).toBeVisible();
  await expect(search.getByRole('listitem').filter({ hasText: 'World desk' })).toHaveCount(0);
  await expect(page.getByRole('article', { name: 'Tool call Lima tides' }).getByRole('status')).toHaveText('Succeeded');

  await page.getByRole('button', { name: /36 tools on/ }).click();
  const now = panel.getByRole('status').filter({ hasText: 'reachable' });
  await expect(now).toContainText(/36 tools reachable · 3 offered now \(2 loaded by search\) · ~[\d,]+ tokens per turn instead of ~[\d,]+ tokens/);
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot(shot('tool-search-panel-narrow-dark'));
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await page.screenshot(shot('tool-search-card-narrow-dark'));
  expect(app.consoleErrors).toEqual([]);
});
