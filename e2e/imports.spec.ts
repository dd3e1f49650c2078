import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { loadOpenApi } from '../main/imports/openapi-source.js';
import { freePort } from '../testing/cores/free-port.js';
import { startOAuthMcpServer } from '../testing/servers/oauth-mcp.js';
import { startSpecExampleServer } from '../testing/servers/spec-example-server.js';
import { v7 as uuidv7 } from 'uuid';
import { clickBundleAction, hostApi, openNewToolEditor } from './fixtures/api.js';
import { putHttpToolBundle, startHttpTarget } from './fixtures/http-target.js';
import { expect, test } from './fixtures/app.js';
import { openScriptedChat, send } from './fixtures/chat.js';
import { shot } from './fixtures/shots.js';

const SPEC = path.join(import.meta.dirname, '../main/imports/fixtures/train-travel-3.1.json');

test('import an API: choose the description file, point it at the API, pick operations, run one in the tester, use it in a chat', async ({ app }) => {
  // Signed in with a token of one's own: the description's OAuth 2 set to a bearer token (its sign-in in the browser has its own test).
  const described = JSON.parse(await readFile(SPEC, 'utf8')) as { components: { securitySchemes: Record<string, unknown> } };
  described.components.securitySchemes.OAuth2 = { type: 'http', scheme: 'bearer' };
  const spec = test.info().outputPath('train-travel-bearer.json');
  await writeFile(spec, JSON.stringify(described));
  const { doc } = await loadOpenApi({ text: JSON.stringify(described) }, []);
  const trainApi = await startSpecExampleServer(doc);
  try {
    const api = hostApi(app.host);
    await api('PUT', '/secrets/TRAIN_TRAVEL_API_OAUTH2_TOKEN', { value: 'token-for-tests' });
    const { page } = app;
    await page.setViewportSize({ width: 1000, height: 700 });
    await page.goto(app.host.url);
    await page.keyboard.press('Control+2');
    await page.getByRole('button', { name: 'Import…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import tools' });
    await dialog.getByLabel('Description file').setInputFiles(spec);
    await dialog.getByRole('button', { name: 'Read description' }).click();
    await expect(dialog.getByText('Train Travel API · OpenAPI 3.1.0 · version 1.0.0 · 7 operations')).toBeVisible();
    // The token is set already: the import uses it only when the person says so, else the bundle gets its own name.
    const useMine = dialog.getByRole('checkbox', { name: 'Let it use my secret TRAIN_TRAVEL_API_OAUTH2_TOKEN' });
    await expect(useMine).not.toBeChecked();
    await expect(dialog).toContainText('Unticked, it gets its own, TRAIN_TRAVEL_API_OAUTH2_TOKEN_2, for you to set.');
    await useMine.check();
    await expect(dialog.getByRole('checkbox', { name: 'Allow its tools to reach api.example.com' })).not.toBeChecked();
    const operations = dialog.getByRole('list', { name: 'Operations' });
    await expect(operations.getByRole('listitem')).toHaveCount(7);
    await expect(dialog.getByRole('button', { name: 'Import 7 tools' })).toBeVisible();

    // The description says the API is at api.example.com; this one runs here.
    const baseUrl = dialog.getByLabel('Base URL of the API');
    await baseUrl.click();
    await page.keyboard.press('Control+a');
    await baseUrl.pressSequentially(trainApi.base);
    // The host to confirm follows the base URL typed; its tools reach it only once it is ticked.
    await dialog.getByRole('checkbox', { name: `Allow its tools to reach ${new URL(trainApi.base).host}` }).check();

    await dialog.getByRole('button', { name: 'Select none' }).click();
    await dialog.getByRole('searchbox', { name: 'Filter operations' }).pressSequentially('station');
    await expect(operations.getByRole('listitem')).toHaveCount(1);
    await operations.getByRole('checkbox', { name: 'GET /stations → get-stations' }).check();
    await dialog.getByRole('searchbox', { name: 'Filter operations' }).clear();
    await operations.getByRole('checkbox', { name: 'GET /trips → get-trips' }).check();
    await page.screenshot(shot('import-preview'));
    await dialog.getByRole('button', { name: 'Import 2 tools' }).click();

    const done = page.getByRole('dialog', { name: 'API imported' });
    await expect(done.getByRole('status')).toHaveText('2 tools written into “Train Travel API”.');
    await done.getByRole('button', { name: 'Show the tools' }).click();
    const tools = page.getByRole('region', { name: 'Tools' });
    await expect(tools.getByRole('button', { name: /^Get a list of train stations/ })).toBeVisible();
    await expect(tools.getByRole('button', { name: /^Get available train trips/ })).toBeVisible();

    // Run it in the tester, against the API's own example answer; the detail says what the tool takes from its bundle.
    await tools.getByRole('button', { name: /^Get a list of train stations/ }).click();
    const definition = page.getByRole('region', { name: 'Get a list of train stations' });
    await expect(definition).toContainText(`GET ${trainApi.base}/stations · from its bundle: base URL, sign-in (bearer token)`);
    const tester = page.getByRole('region', { name: 'Tester' });
    await tester.getByRole('button', { name: 'Run', exact: true }).click();
    const response = tester.getByRole('region', { name: 'Response' });
    await expect(response).toContainText('HTTP 200');
    await expect(response).toContainText('Berlin Hauptbahnhof');
    expect(trainApi.seen.at(-1)!.headers.authorization).toBe('Bearer token-for-tests');
    await page.screenshot(shot('import-tester'));

    // And in a chat: the model calls the imported tool, its answer comes back.
    const { bundles } = (await api('GET', '/tools/bundles')) as { bundles: { bundleID: string; displayName: string }[] };
    const bundleID = bundles.find((bundle) => bundle.displayName === 'Train Travel API')!.bundleID;
    await page.keyboard.press('Control+1');
    await openScriptedChat(app, [{ toolCalls: [{ name: 'get-stations', args: {} }] }, { text: 'There are stations in Berlin and Paris.' }], [{ bundleID, slug: 'get-stations', version: 'v1' }]);
    await send(page, 'Which stations are there?');
    await expect(page.getByRole('log', { name: 'Messages' })).toContainText('There are stations in Berlin and Paris.');
    await expect(page.getByRole('article', { name: 'Tool call Get a list of train stations' })).toBeVisible();
  } finally {
    await trainApi.close();
  }
});

test('an import that cannot be read says why, and nothing is written', async ({ app }) => {
  const { page } = app;
  await page.goto(app.host.url);
  await page.keyboard.press('Control+2');
  await page.getByRole('button', { name: 'Import…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import tools' });
  await dialog.getByRole('radio', { name: 'Paste' }).check();
  await dialog.getByRole('textbox', { name: 'Description text' }).pressSequentially('title: not an API');
  await dialog.getByRole('button', { name: 'Read description' }).click();
  await expect(dialog.getByRole('alert')).toHaveText(/no "openapi" or "swagger" field/);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  const { bundles } = (await hostApi(app.host)('GET', '/tools/bundles')) as { bundles: unknown[] };
  expect(bundles.every((bundle) => (bundle as { isBuiltIn: boolean }).isBuiltIn)).toBe(true);
});

test('a bundle’s connection: base URL, API key from a secret, hosts; its tools show and use what they inherit', async ({ app }) => {
  const seen: { url?: string; key?: string }[] = [];
  const { target, close } = await startHttpTarget((request, response) => {
    seen.push({ url: request.url, key: request.headers['x-api-key'] as string | undefined });
    response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"pong":true}');
  });
  try {
    const api = hostApi(app.host);
    await api('PUT', '/secrets/PING_KEY', { value: 'k"ey' });
    const bundleID = uuidv7();
    await api('PUT', `/tools/bundles/${bundleID}`, { slug: 'ping-api', displayName: 'Ping API' });
    await api('PUT', `/tools/bundles/${bundleID}/tools/ping/version/v1`, { type: 'http', displayName: 'Ping', argSchema: { type: 'object', properties: {} }, impl: { method: 'GET', urlTemplate: '/v1/ping' } });
    const { page } = app;
    await page.setViewportSize({ width: 1000, height: 700 });
    await page.goto(app.host.url);
    await page.keyboard.press('Control+2');
    await page.getByRole('list', { name: 'Bundles' }).getByRole('button', { name: /^Ping API/ }).click();
    await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: /^Ping HTTP/ }).click();
    const definition = page.getByRole('region', { name: 'Ping' });
    await expect(definition).toContainText('GET /v1/ping · cannot run: its URL /v1/ping is relative and its bundle has no base URL');

    await clickBundleAction(page, 'Ping API', 'Connection of bundle');
    const dialog = page.getByRole('dialog', { name: 'Connection of Ping API' });
    await expect(dialog.getByLabel('Base URL')).toBeFocused();
    await page.keyboard.type(`http://${target}`);
    await dialog.getByLabel('Sign-in').selectOption('API key');
    await dialog.getByLabel('Key (a secret)').pressSequentially('PING_KEY');
    await dialog.getByLabel('Hosts its tools may reach, besides the global list').pressSequentially(target);
    await page.screenshot(shot('bundle-connection'));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();

    await expect(definition).toContainText(`GET http://${target}/v1/ping · from its bundle: base URL, sign-in (API key in header X-Api-Key)`);
    const tester = page.getByRole('region', { name: 'Tester' });
    await tester.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(tester.getByRole('region', { name: 'Response' })).toContainText('HTTP 200');
    expect(seen).toEqual([{ url: '/v1/ping', key: 'k"ey' }]);
  } finally {
    close();
  }
});

test('start a tool from a cURL command: pick the values that become arguments, the key becomes a secret, save and run it', async ({ app }) => {
  const seen: { url?: string; key?: string; body: string }[] = [];
  const { target, close } = await startHttpTarget((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      seen.push({ url: request.url, key: request.headers['x-api-key'] as string | undefined, body });
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"saved":true}');
    });
  });
  try {
    const api = hostApi(app.host);
    await api('PATCH', '/settings', { allowedHosts: [target] });
    const editor = await openNewToolEditor(app);
    const { page } = app;
    await editor.getByRole('button', { name: 'From cURL…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Start from a cURL command' });
    await expect(dialog.getByRole('textbox', { name: 'cURL command' })).toBeFocused();
    await page.keyboard.type(`curl -X POST 'http://${target}/notes/7?draft=true' -H 'X-Api-Key: k-123' --json '{"title":"Hi","pinned":false}'`);
    await dialog.getByRole('button', { name: 'Read command' }).click();
    await expect(dialog.getByText(`POST http://${target}/notes/7`)).toBeVisible();
    await expect(dialog.getByText('Secrets: LOCAL_X_API_KEY (header X-Api-Key, saved when you use this).')).toBeVisible();
    const values = dialog.getByRole('list', { name: 'Values' });
    await values.getByRole('listitem').filter({ hasText: 'notes_id' }).getByRole('checkbox').check();
    await values.getByRole('listitem').filter({ hasText: 'title' }).getByRole('checkbox').check();
    await page.screenshot(shot('curl-import'));
    await dialog.getByRole('button', { name: 'Use in the editor' }).click();
    await expect(dialog).toBeHidden();

    await expect(editor.getByLabel('URL template')).toHaveValue(`http://${target}/notes/\${notes_id}`);
    await editor.getByLabel('Display name').press('Control+a');
    await editor.getByLabel('Display name').pressSequentially('Save note');
    await editor.getByRole('button', { name: 'Save', exact: true }).click();
    // The saved tool's own page, with its tester, replaces the editor.
    await expect(page.getByRole('button', { name: 'New version…' })).toBeVisible();
    const tester = page.getByRole('region', { name: 'Tester' });
    const form = tester.getByRole('form', { name: 'Save note' });
    await form.getByLabel('notes_id').pressSequentially('9');
    await form.getByLabel('title').pressSequentially('Groceries');
    await expect(form.getByLabel('notes_id')).toHaveValue('9');
    await page.keyboard.press('Control+Enter');
    await expect(tester.getByRole('region', { name: 'Response' })).toContainText('HTTP 200');
    expect(seen).toEqual([{ url: '/notes/9?draft=true', key: 'k-123', body: '{"title":"Groceries","pinned":false}' }]);
    // The key lives in the secret store; the tool file names it only.
    const { secrets } = (await api('GET', '/secrets')) as { secrets: { name: string }[] };
    expect(secrets.map((secret) => secret.name)).toEqual(['LOCAL_X_API_KEY']);
  } finally {
    close();
  }
});

test('an OAuth 2 (client credentials) tool: the tester shows the token request as its own step, the token masked', async ({ app }) => {
  const { target, close } = await startHttpTarget((request, response) => {
    if (request.url === '/oauth/token') return void response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"access_token":"tok-e2e","token_type":"Bearer","expires_in":600}');
    const ok = request.headers.authorization === 'Bearer tok-e2e';
    response.writeHead(ok ? 200 : 401, { 'Content-Type': 'application/json' }).end(ok ? '{"me":"toolbelt"}' : '{"error":"invalid_token"}');
  });
  try {
    const api = hostApi(app.host);
    await api('PUT', '/secrets/CLIENT_SECRET', { value: 'client-secret' });
    await putHttpToolBundle(api, {
      target,
      bundle: { slug: 'oauth-api', displayName: 'OAuth API' },
      slug: 'me',
      tool: {
        displayName: 'Who am I',
        argSchema: { type: 'object', properties: {} },
        impl: { method: 'GET', urlTemplate: `http://${target}/me`, auth: { kind: 'oauth2', flow: 'clientCredentials', tokenUrl: `http://${target}/oauth/token`, clientId: 'toolbelt', clientSecret: '${secret.CLIENT_SECRET}' } },
      },
    });
    const { page } = app;
    await page.goto(app.host.url);
    await page.keyboard.press('Control+2');
    await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: /^Who am I/ }).click();
    const tester = page.getByRole('region', { name: 'Tester' });
    await tester.getByRole('button', { name: 'Run', exact: true }).click();
    const response = tester.getByRole('region', { name: 'Response' });
    await expect(response).toContainText('HTTP 200');
    await expect(response.getByText('Token request')).toBeVisible();
    await expect(response).not.toContainText('tok-e2e');
    await page.screenshot(shot('oauth-token-step'));
  } finally {
    close();
  }
});

test('an API that signs in in the browser (OAuth 2 authorization code): set up its connection, sign in through the provider’s page, and its tools run as you', async ({ app, context }) => {
  test.setTimeout(120_000);
  const remote = await startOAuthMcpServer();
  try {
    const provider = new URL(remote.base);
    // The provider's developer console: a public client registered with Toolbelt's redirect on a fixed port.
    const redirectPort = await freePort();
    const registered = await fetch(new URL('/register', provider), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Toolbelt', redirect_uris: [`http://127.0.0.1:${redirectPort}/callback`], token_endpoint_auth_method: 'none' }),
    });
    const { client_id: clientId } = (await registered.json()) as { client_id: string };
    const api = hostApi(app.host);
    const bundleID = uuidv7();
    await api('PUT', `/tools/bundles/${bundleID}`, { slug: 'demo-api', displayName: 'Demo API' });
    await api('PUT', `/tools/bundles/${bundleID}/tools/whoami/version/v1`, { type: 'http', displayName: 'Who am I', argSchema: { type: 'object', properties: {} }, impl: { method: 'GET', urlTemplate: '/api/whoami' } });

    const { page } = app;
    await page.goto(app.host.url);
    await page.keyboard.press('Control+2');
    await clickBundleAction(page, 'Demo API', 'Connection of bundle');
    const dialog = page.getByRole('dialog', { name: 'Connection of Demo API' });
    await page.keyboard.type(provider.origin);
    await dialog.getByLabel('Sign-in').selectOption('OAuth 2 (sign in in the browser)');
    await dialog.getByLabel('Authorization URL').pressSequentially(`${provider.origin}/authorize`);
    await dialog.getByLabel('Token URL').pressSequentially(`${provider.origin}/token`);
    await dialog.getByLabel('Client ID').pressSequentially(clientId);
    await dialog.getByLabel('Scope (optional)').pressSequentially('mcp:tools');
    await dialog.getByLabel('Redirect port (optional)').pressSequentially(String(redirectPort));
    await expect(dialog.getByText(`Register http://127.0.0.1:${redirectPort}/callback with the provider.`)).toBeVisible();
    await dialog.getByLabel('Hosts its tools may reach, besides the global list').pressSequentially(provider.host);
    await page.screenshot(shot('oauth-browser-connection'));
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot(shot('oauth-browser-connection-dark'));
    await page.emulateMedia({ colorScheme: 'light' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();

    const signInStrip = page.getByRole('group', { name: 'Sign-in of Demo API' });
    await expect(signInStrip).toContainText('OAuth 2 · not signed in');
    // Before the sign-in, a run says what to do.
    await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: /^Who am I/ }).click();
    await expect(page.getByRole('region', { name: 'Who am I' })).toContainText('from its bundle: base URL, sign-in (OAuth 2, signed in in the browser)');
    const tester = page.getByRole('region', { name: 'Tester' });
    await tester.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(tester.getByRole('region', { name: 'Response' })).toContainText('Sign in to Demo API first, from its connection.');

    const [tab] = await Promise.all([context.waitForEvent('page'), signInStrip.getByRole('button', { name: 'Sign in to Demo API' }).click()]);
    await expect(tab.getByRole('heading', { name: 'Signed in' })).toBeVisible();
    await tab.close();
    await expect(signInStrip).toContainText('OAuth 2 · signed in · renews by itself');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot(shot('oauth-browser-signed-in-dark'));
    await page.emulateMedia({ colorScheme: 'light' });

    await tester.getByRole('button', { name: 'Run', exact: true }).click();
    const response = tester.getByRole('region', { name: 'Response' });
    await expect(response).toContainText('HTTP 200');
    await expect(tester.getByTestId('tester-value')).toContainText(clientId);

    await signInStrip.getByRole('button', { name: 'Sign out of Demo API' }).click();
    await expect(signInStrip).toContainText('OAuth 2 · not signed in');
    expect(app.consoleErrors).toEqual([]);
    expect(app.offLoopback).toEqual([]);
  } finally {
    await remote.stop();
  }
});

test('export a bundle as .zip and import it again: a second bundle beside the first, with the secrets it needs named', async ({ app }) => {
  const api = hostApi(app.host);
  const bundleID = uuidv7();
  const hooks = { PreToolUse: [{ matcher: 'list-notes', hooks: [{ type: 'command', command: 'node ./audit.mjs --to "$HOME/notes-audit.log"' }] }] };
  await api('PUT', `/tools/bundles/${bundleID}`, { slug: 'notes', displayName: 'Notes', http: { baseUrl: 'https://notes.example.com', auth: { kind: 'bearer', token: '${secret.NOTES_TOKEN}' } }, hooks });
  await api('PUT', `/tools/bundles/${bundleID}/tools/list-notes/version/v1`, { type: 'http', displayName: 'List notes', argSchema: { type: 'object', properties: {} }, impl: { method: 'GET', urlTemplate: '/notes' } });
  const { page } = app;
  await page.goto(app.host.url);
  await page.keyboard.press('Control+2');
  const downloading = page.waitForEvent('download');
  await clickBundleAction(page, 'Notes', 'Export bundle');
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('notes.zip');
  const zipPath = test.info().outputPath('notes.zip');
  await download.saveAs(zipPath);

  await page.getByRole('button', { name: 'Import…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import tools' });
  await dialog.getByLabel('Description file').setInputFiles(zipPath);
  const preview = dialog.getByRole('region', { name: 'What the bundle holds' });
  await expect(preview).toContainText('Notes · 1 tool');
  await expect(preview.getByRole('list', { name: 'Tools in the bundle' })).toContainText('List notes');
  await expect(preview).toContainText('You already have a bundle named “Notes”: this one is added beside it as “Notes (2)”.');
  await expect(preview).toContainText('Secrets it uses: NOTES_TOKEN (not set yet)');
  await expect(preview).toContainText('Set NOTES_TOKEN in Settings → Secrets once it is imported');
  // Its hook is shown whole before anything is imported, and comes in off.
  await expect(preview).toContainText('It has a hook, imported off');
  await expect(preview.locator('.hook-list code')).toHaveText('node ./audit.mjs --to "$HOME/notes-audit.log"');
  await page.screenshot(shot('archive-import'));
  await preview.getByRole('button', { name: 'Import bundle' }).click();
  await expect(dialog).toBeHidden();
  const bundles = page.getByRole('list', { name: 'Bundles' });
  await expect(bundles.getByRole('button', { name: /^Notes/ })).toHaveCount(2);
  // Told apart by name (defect 9: two rows both said "Notes").
  await expect(bundles.getByRole('button', { name: /^Notes \(2\)/ })).toHaveCount(1);
  await expect(bundles.getByRole('button', { name: /^Notes \(2\)/ })).toContainText('hooks off');
});

test('a Postman collection imports the same way: its folders and requests as tools, its OAuth as a sign-in that names the secret it needs', async ({ app }) => {
  const { page } = app;
  await page.goto(app.host.url);
  await page.keyboard.press('Control+2');
  await page.getByRole('button', { name: 'Import…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import tools' });
  await dialog.getByLabel('Description file').setInputFiles(path.join(import.meta.dirname, '../main/imports/fixtures/train-travel.postman_collection.json'));
  await dialog.getByRole('button', { name: 'Read description' }).click();
  await expect(dialog.getByText('Train Travel API · Postman collection v2.1 · 7 operations')).toBeVisible();
  const applied = page.waitForRequest((request) => request.url().endsWith('/api/imports/openapi/apply'));
  await dialog.getByRole('button', { name: 'Import 7 tools' }).click();
  const imported = page.getByRole('dialog', { name: 'API imported' });
  await expect(imported.getByRole('status')).toHaveText('7 tools written into “Train Travel API”.');
  // Import names the preview's reading of the collection: its text is not sent a second time.
  const body = (await applied).postDataJSON() as Record<string, unknown>;
  expect(body.previewId).toEqual(expect.any(String));
  expect(body).not.toHaveProperty('source');
  await expect(imported).toContainText('Set this secret in Settings → Secrets before you run them: TRAIN_TRAVEL_API_CLIENT_ID.');
  await expect(imported).toContainText('It signs in in your browser: then select Sign in under the bundle.');
  await page.screenshot(shot('postman-imported'));
  await imported.getByRole('button', { name: 'Show the tools' }).click();
  // Its OAuth 2 (authorization code) became a sign-in in the browser, waiting for the client ID the person registers.
  const signIn = page.getByRole('group', { name: 'Sign-in of Train Travel API' });
  await expect(signIn).toContainText('OAuth 2 · not signed in');
  await expect(signIn).toContainText('The sign-in of “Train Travel API” needs the secret TRAIN_TRAVEL_API_CLIENT_ID, which is not set. Add it in Settings → Secrets.');
  await page.screenshot(shot('postman-sign-in-needs-secret'));
});
