import path from 'node:path';
import { expect, test } from './fixtures/app.js';
import { PROJECT_ROOT } from '../main/testing/spawned-host.js';

const EVERYTHING = path.join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const shot = (name: string) => ({ path: test.info().outputPath(`${name}.png`), fullPage: true });

test('paste an mcpServers document, see the server start with its tools, run one in the tester, and see why another failed', async ({ app }) => {
  test.setTimeout(60_000);
  const { page } = app;
  await page.goto(app.host.url);
  await page.keyboard.press('Control+2');
  const bundles = page.getByRole('region', { name: 'Bundles' });
  await bundles.getByRole('button', { name: 'Add MCP server' }).click();
  const form = bundles.getByRole('form', { name: 'Add MCP server' });
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

  const everything = bundles.getByRole('button', { name: /^everything/ });
  await expect(everything).toBeVisible();
  await expect(bundles.getByText('connected')).toBeVisible();
  await expect(bundles.getByText(/The command "toolbelt-no-such-command-42" was not found/).last()).toBeVisible();
  await page.screenshot(shot('mcp-servers-light'));
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot(shot('mcp-servers-dark'));
  await page.emulateMedia({ colorScheme: 'light' });

  await everything.click();
  const tools = page.getByRole('region', { name: 'Tools' });
  await tools.getByRole('button', { name: /^Echo Tool/ }).click();
  const tester = page.getByRole('region', { name: 'Tester' });
  await tester.getByLabel('message').pressSequentially('typed into the tester');
  await tester.getByRole('button', { name: 'Run' }).click();
  await expect(tester.getByTestId('tester-value')).toContainText('Echo: typed into the tester');
  await page.screenshot(shot('mcp-tester'));

  // Removing a server takes its bundle away.
  await bundles.getByRole('button', { name: 'Remove MCP server missing' }).click();
  await expect(bundles.getByRole('button', { name: 'Remove MCP server missing' })).toHaveCount(0);
  expect(app.consoleErrors).toEqual([]);
  expect(app.offLoopback).toEqual([]);
});
