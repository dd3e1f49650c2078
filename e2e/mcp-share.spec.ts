import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { v7 as uuidv7 } from 'uuid';
import { freePort } from '../testing/cores/free-port.js';
import { hostApi } from './fixtures/api.js';
import { openSettings } from './fixtures/settings.js';
import { expect, test } from './fixtures/app.js';
import { fullShot, shot } from './fixtures/shots.js';

test('share a bundle over MCP, approve another app’s call in the window, and see it in the activity', async ({ app }) => {
  const { page } = app;
  // Time runs as usual; it is moved on by hand further down.
  await page.clock.install();
  const api = hostApi(app.host);
  const bundleID = uuidv7();
  await api('PUT', `/tools/bundles/${bundleID}`, { slug: 'maths', displayName: 'Maths' });
  const argSchema = { type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] };
  await api('PUT', `/tools/bundles/${bundleID}/tools/sum/version/v1`, {
    displayName: 'Careful sum',
    description: 'Adds numbers, after asking.',
    type: 'local',
    requiresApproval: true,
    argSchema,
    impl: { func: 'core.calculate' },
  });

  // Settings: a port of our own (typed), then on.
  await page.goto(app.host.url);
  await openSettings(page, 'MCP server');
  const section = page.getByRole('region', { name: 'MCP server', exact: true });
  await expect(section).toContainText('Off · 0 tools would be shared');
  await expect(section.getByRole('list', { name: 'Calls from other apps' })).toHaveCount(0);
  await expect(section).toContainText('No app has called a shared tool yet.');
  await section.screenshot(shot('mcp-share-off'));
  const port = await freePort();
  const portField = section.getByRole('textbox', { name: 'Port on 127.0.0.1' });
  await portField.selectText();
  await portField.pressSequentially(String(port));
  await section.getByRole('button', { name: 'Use this port' }).click();
  await section.getByRole('switch', { name: 'Serve shared tools over MCP' }).click();
  await expect(section.getByRole('status')).toContainText(`Running at http://127.0.0.1:${port}/mcp · 0 tools shared · no app connected`);

  // Tools: share the bundle.
  await page.keyboard.press('Control+2');
  await page.getByRole('region', { name: 'Bundles' }).getByRole('button', { name: /^Maths/ }).click();
  await page.getByRole('switch', { name: 'Share Maths over MCP' }).click();
  await expect(page.getByRole('switch', { name: 'Share Maths over MCP' })).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByText('Shared over MCP', { exact: true })).toBeVisible();

  // Settings again: the connection settings another app pastes.
  await page.keyboard.press('Control+3');
  await section.getByRole('button', { name: 'Show connection settings' }).click();
  const snippet = JSON.parse((await section.getByLabel('Settings for HTTP clients', { exact: true }).textContent()) ?? '') as {
    mcpServers: { toolbelt: { url: string; headers: { Authorization: string } } };
  };
  const { url, headers } = snippet.mcpServers.toolbelt;
  expect(url).toBe(`http://127.0.0.1:${port}/mcp`);
  await page.screenshot(fullShot('mcp-share-settings'));

  const client = new Client({ name: 'Cursor', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  try {
    await expect(section.getByRole('status')).toContainText('1 tool shared · connected: Cursor');
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['sum']);
    const call = client.callTool({ name: 'sum', arguments: { expression: '19 + 23' } });
    const dialog = page.getByRole('dialog', { name: 'Approve tool call' });
    await expect(dialog).toContainText('Cursor wants to run Careful sum');
    await expect(dialog.getByLabel('Arguments', { exact: true })).toContainText('"expression": "19 + 23"');
    await page.screenshot(fullShot('mcp-share-approval'));
    // Focus starts on Allow once: Enter allows.
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    const result = (await call) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain('42');

    const activity = section.getByRole('list', { name: 'Calls from other apps' });
    await expect(activity.getByRole('listitem').first()).toContainText('Cursor ran Careful sum (you allowed it)');

    // A second call, denied with Esc: the other app hears it was declined.
    const denied = client.callTool({ name: 'sum', arguments: { expression: '1 + 1' } });
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    const refusal = (await denied) as CallToolResult;
    expect(refusal.isError).toBe(true);
    await expect(activity.getByRole('listitem').first()).toContainText('(you denied it)');
    await page.screenshot(fullShot('mcp-share-activity'));
  } finally {
    await client.close();
  }

  // Gone without ending its session (the SDK's close sends no DELETE): two quiet minutes later it no longer reads
  // "connected" (defect 9: it did for as long as Toolbelt ran).
  await page.clock.fastForward('03:00');
  await expect(section.getByRole('status')).toContainText('quiet: Cursor (last request 3 minutes ago)');
  await expect(section.getByRole('status')).not.toContainText('connected: Cursor');

  // A new token asks first; then the settings shown carry it.
  const shownToken = async () => (await section.getByLabel('Settings for HTTP clients', { exact: true }).textContent())?.match(/Bearer ([\w-]+)/)?.[1];
  const before = await shownToken();
  await section.getByRole('button', { name: 'New token' }).click();
  const confirm = section.getByRole('alertdialog', { name: 'Replace the token?' });
  await expect(confirm).toContainText('stop working until you give them the new one');
  await confirm.screenshot(shot('mcp-share-new-token'));
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  await expect(confirm).toBeHidden();
  expect(await shownToken()).toBe(before);
  await section.getByRole('button', { name: 'New token' }).click();
  await confirm.getByRole('button', { name: 'Replace token' }).click();
  await expect(confirm).toBeHidden();
  await expect.poll(shownToken).not.toBe(before);
  // Narrow and dark: the toggle and the section keep their shape.
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot(fullShot('mcp-share-settings-narrow-dark'));
  await page.keyboard.press('Control+2');
  await expect(page.getByRole('switch', { name: 'Share Maths over MCP' })).toBeVisible();
  await page.screenshot(fullShot('mcp-share-tools-narrow-dark'));

  // A port another program holds (the browser host's own): said where the status is, with what to do.
  await page.keyboard.press('Control+3');
  const taken = new URL(app.host.url).port;
  await portField.selectText();
  await portField.pressSequentially(taken);
  await section.getByRole('button', { name: 'Use this port' }).click();
  await expect(section.getByRole('status')).toHaveText(`Port ${taken} is taken by another program. Choose another port for the MCP server.`);
  await section.screenshot(shot('mcp-share-port-taken'));
  expect(app.consoleErrors).toEqual([]);
});
