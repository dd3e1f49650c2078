import { expect, test } from './fixtures/app.js';

test.use({ seedStore: { bundles: 100, toolsPerBundle: 100 } });

test('ten thousand tools: the list renders only what is visible and loads more as it scrolls', async ({ app }) => {
  // Seeding and first loading ten thousand tools takes 20 s of the usual 30 here, and more on a busy CI machine.
  test.setTimeout(60_000);
  const { page } = app;
  await page.goto(app.host.url);
  // With ten thousand tools to load, the page can take a moment to start listening for shortcuts.
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await page.keyboard.press('Control+2');
  await expect(page.getByRole('heading', { level: 1, name: 'Tools' })).toBeVisible();
  const list = page.getByRole('list', { name: 'Tools' });
  await expect(list.getByRole('listitem').first()).toBeVisible();
  expect(await list.getByRole('listitem').count()).toBeLessThan(60);

  const scroller = page.locator('.list-scroller');
  for (let step = 0; step < 12; step++) await scroller.evaluate((element) => element.scrollBy(0, 4_000));
  await expect
    .poll(async () => Number(await list.getByRole('listitem').last().getAttribute('aria-posinset')))
    .toBeGreaterThan(200);
  expect(await list.getByRole('listitem').count()).toBeLessThan(60);

  await page.getByRole('searchbox', { name: 'Search tools' }).pressSequentially('report 42-7');
  await expect(list.getByRole('listitem').first()).toContainText('Report 42-7');
  await page.getByRole('searchbox', { name: 'Filter by tag' }).pressSequentially('odd');
  await expect(list.getByRole('listitem').first()).toContainText('Report 42-7');
  expect(app.consoleErrors).toEqual([]);
});
