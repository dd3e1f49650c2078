import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { hostApi } from './fixtures/api.js';
import { expect, test } from './fixtures/app.js';
import { openSettings } from './fixtures/settings.js';
import { fullShot, shot } from './fixtures/shots.js';
import { typeOver } from './fixtures/typing.js';
import { PROJECT_ROOT } from '../testing/cores/spawned-host.js';

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id);
}

test('secrets are write-only on screen: set by name, never shown, deletable', async ({ app }) => {
  const SECRET = 'sk-ui-3f9a1c7e5b';
  const { page } = app;
  await page.goto(app.host.url);
  await openSettings(page, 'Secrets');
  const form = page.getByRole('form', { name: 'Set a secret' });
  await typeOver(form.getByLabel('Secret name'), 'WEATHER_KEY');
  await typeOver(form.getByLabel('Secret value'), SECRET);
  await form.getByRole('button', { name: 'Set' }).click();
  const list = page.getByRole('list', { name: 'Secrets' });
  await expect(list.getByText('WEATHER_KEY')).toBeVisible();
  await expect(form.getByLabel('Secret value')).toHaveValue('');
  expect(await page.content()).not.toContain(SECRET);
  await page.screenshot(fullShot('settings-secrets'));

  await typeOver(form.getByLabel('Secret name'), 'bad name');
  await typeOver(form.getByLabel('Secret value'), 'x');
  await form.getByRole('button', { name: 'Set' }).click();
  await expect(page.getByRole('alert')).toHaveText('Name: Use letters, digits and _ only, starting with a letter or _ (up to 128 characters).');

  await list.getByRole('button', { name: 'Delete secret WEATHER_KEY' }).click();
  await expect(page.getByText('No secrets yet.')).toBeVisible();
  expect(app.consoleErrors.filter((message) => !message.includes('400'))).toEqual([]);
});

test('allowed hosts: the shipped ones listed, add, refuse a malformed one, remove', async ({ app }) => {
  const { page } = app;
  await page.goto(app.host.url);
  await openSettings(page, 'Hosts and folders');
  const hosts = page.getByRole('list', { name: 'Allowed hosts' });
  await expect(hosts.getByText('api.open-meteo.com', { exact: true })).toBeVisible();
  await typeOver(page.getByLabel('Host to allow'), 'api.example.com');
  await page.getByLabel('Host to allow').press('Enter');
  await expect(hosts.getByText('api.example.com', { exact: true })).toBeVisible();
  await typeOver(page.getByLabel('Host to allow'), 'https://nope.example.com/path');
  await page.getByLabel('Host to allow').press('Enter');
  await expect(page.getByRole('alert')).toContainText('Use a host name in lower case, optionally with :port or a leading *.');
  await hosts.getByRole('button', { name: 'Remove api.example.com' }).click();
  await expect(hosts.getByText('api.example.com', { exact: true })).toHaveCount(0);
});

test('allowed hosts and readable folders refuse what cannot work, saying why in a sentence', async ({ app }) => {
  const { page } = app;
  await page.goto(app.host.url);
  await openSettings(page, 'Hosts and folders');
  // As a person does, once the lists are there (until then an entry cannot be added: it would be saved as the whole list).
  await expect(page.getByRole('list', { name: 'Allowed hosts' }).getByText('api.open-meteo.com', { exact: true })).toBeVisible();
  const hostInput = page.getByLabel('Host to allow');
  await hostInput.pressSequentially('localhost:99999');
  await hostInput.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'port' })).toHaveText('Allowed hosts (item 3): localhost:99999 has port 99999; a port is a number from 1 to 65535.');
  await expect(page.getByRole('list', { name: 'Allowed hosts' }).getByText('localhost:99999')).toHaveCount(0);
  const folderInput = page.getByLabel('Folder to allow');
  await folderInput.pressSequentially('notes');
  await folderInput.press('Enter');
  await expect(page.getByRole('alert').filter({ hasText: 'full path' })).toContainText('"notes" is not a full path');
  await folderInput.press('Control+A');
  await folderInput.pressSequentially(app.dataDir);
  await folderInput.press('Enter');
  await expect(page.getByRole('list', { name: 'Readable folders' }).getByText(app.dataDir, { exact: true })).toBeVisible();
});

test('every screen passes axe with no serious or critical violations, in light and dark', async ({ app }) => {
  // Twenty axe runs (three screens and Settings' seven sections, light and dark): ~23 s alone, more beside other tests
  // (one CI run of two workers on two loaded cores took over 60 s, its last screenshot already taken).
  test.setTimeout(120_000);
  const { page } = app;
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(app.host.url);
    for (const [shortcut, name] of [['Control+1', 'Chat'], ['Control+2', 'Tools'], ['Control+3', 'Settings']] as const) {
      const shown = await page.getByRole('heading', { level: 1 }).textContent();
      await page.keyboard.press(shortcut);
      const heading = page.getByRole('heading', { level: 1, name });
      await expect(heading).toBeAttached();
      // A new screen's heading takes focus; the key of the screen already shown leaves focus where it was (#51).
      if (shown !== name) await expect(heading).toBeFocused();
      else await expect(heading).not.toBeFocused();
      expect(await seriousViolations(page), `${scheme} ${shortcut}`).toEqual([]);
    }
    // Each of Settings' own sections.
    const sections = page.getByRole('navigation', { name: 'Settings sections' }).getByRole('button');
    for (let index = 0; index < (await sections.count()); index++) {
      await sections.nth(index).click();
      await expect(sections.nth(index)).toHaveAttribute('aria-current', 'page');
      expect(await seriousViolations(page), `${scheme} Settings section ${index + 1}`).toEqual([]);
    }
  }
  await page.screenshot(fullShot('settings-dark-full'));
});

test('hooks: a block in Claude Code’s format is typed in, a matcher the engine cannot run is refused with where, and the saved hooks are counted', async ({ app }) => {
  const { page } = app;
  await page.goto(app.host.url);
  await openSettings(page, 'Hooks');
  await expect(page.getByRole('status').filter({ hasText: 'No hooks' })).toBeVisible();
  const field = page.getByLabel('Hooks (JSON)');
  const block = (matcher: string) => JSON.stringify({ hooks: { PreToolUse: [{ matcher, hooks: [{ type: 'command', command: 'node guard.mjs', timeout: 30 }] }] } });
  await typeOver(field, block('(?=forecast)'));
  await page.getByRole('button', { name: 'Save hooks' }).click();
  await expect(page.getByRole('alert')).toContainText('Matcher: Uses lookahead or lookbehind');
  await typeOver(field, '{"PreToolUse": [');
  await page.getByRole('button', { name: 'Save hooks' }).click();
  await expect(page.getByRole('alert')).toContainText('This is not JSON, so nothing was saved');
  // A whole .claude/settings.json is taken for its hooks block.
  await typeOver(field, block('forecast|mcp__github__.*'));
  await page.getByRole('button', { name: 'Save hooks' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'PreToolUse: 1' })).toBeVisible();
  await expect(field).toHaveValue(/"matcher": "forecast\|mcp__github__\.\*"/);
  await page.screenshot(fullShot('settings-hooks'));

  // A Cursor .cursor/hooks.json is read into the same shape and shown first: it runs only once saved again.
  await typeOver(field, JSON.stringify({ version: 1, hooks: { beforeMCPExecution: [{ command: './mcp-guard.sh' }], afterFileEdit: [{ command: './format.sh' }] } }));
  await page.getByRole('button', { name: 'Save hooks' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Read as Cursor hooks' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'afterFileEdit' })).toBeVisible();
  await expect(field).toHaveValue(/"matcher": "mcp__\.\*"/);
  await expect(page.getByRole('status').filter({ hasText: 'PreToolUse: 1' })).toBeVisible();
  await page.screenshot(fullShot('settings-hooks-cursor'));
  await page.getByRole('button', { name: 'Save hooks' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Read as Cursor hooks' })).toBeHidden();
  await expect(field).toHaveValue(/"\.\/mcp-guard\.sh"/);
  expect(app.consoleErrors.filter((message) => !message.includes('400'))).toEqual([]);
});

test('hooks: "Try it" runs the typed hooks on a sample call without running the tool, and says what the call would become', async ({ app }) => {
  const { page } = app;
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.goto(app.host.url);
  await openSettings(page, 'Hooks');
  const guard = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(PROJECT_ROOT, 'testing/hooks/city-guard.mjs'))}`;
  // Typed, not saved: what is tried is what is on the screen.
  await typeOver(page.getByLabel('Hooks (JSON)'), JSON.stringify({ PreToolUse: [{ matcher: 'forecast', hooks: [{ type: 'command', command: guard }] }] }));
  await page.getByLabel('Find a tool').pressSequentially('current weather');
  await expect(page.getByLabel('Tool', { exact: true })).toContainText('Current weather (forecast');
  const args = page.getByLabel('Arguments of the sample call (JSON)');
  await typeOver(args, '{"city": "Atlantis"}');
  await page.getByRole('button', { name: 'Try the hooks' }).press('Enter');
  const said = page.getByRole('status').filter({ hasText: 'The call would' });
  await expect(said).toContainText('The call would not run: Atlantis is not a city you can ask the weather of.');
  await expect(said.getByText('PreToolUse · deny')).toBeVisible();

  await typeOver(args, '{"city": "Old Town"}');
  await page.getByRole('button', { name: 'Try the hooks' }).press('Enter');
  await expect(said).toContainText('The call would go on with no approval asked.');
  await expect(said).toContainText('It would be sent as: {"city":"Tallinn"}');
  await expect(said).toContainText('The model would read: The person calls Tallinn "Old Town".');
  await said.scrollIntoViewIfNeeded();
  await page.screenshot(shot('hooks-try'));
  // Nothing was saved by trying.
  await expect(page.getByRole('status').filter({ hasText: 'No hooks' })).toBeVisible();

  // Where calls go as OpenTelemetry spans: typed, saved with Enter.
  const endpoint = page.getByLabel('Traces endpoint');
  await endpoint.pressSequentially('http://localhost:4318/v1/traces');
  await endpoint.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Saved: calls are sent there.' })).toBeVisible();
  expect(await hostApi(app.host)('GET', '/settings')).toMatchObject({ otlpTracesUrl: 'http://localhost:4318/v1/traces' });
  expect(app.consoleErrors).toEqual([]);
});
