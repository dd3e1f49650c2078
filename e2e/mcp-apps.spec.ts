import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { PROJECT_ROOT } from '../testing/cores/spawned-host.js';
import { tinyPdf } from '../testing/data/tiny-pdf.js';
import { hostApi } from './fixtures/api.js';
import { expect, test } from './fixtures/app.js';
import { shot } from './fixtures/shots.js';

/** The MCP Apps SDK's published example servers: get-time, whose UI (plain DOM, or React) shows the time and can call get-time itself. */
const exampleServer = (name: string) => ({ command: process.execPath, args: [path.join(PROJECT_ROOT, `node_modules/@modelcontextprotocol/${name}/dist/index.js`), '--stdio'] });
const BASIC_APP = exampleServer('server-basic-vanillajs');

/** The Clock chat whose model calls get-time, and with `elsewhere` a second chat to leave it for and come back. */
async function chatWithApp(app: Parameters<Parameters<typeof test>[2]>[0]['app'], config: ReturnType<typeof exampleServer>, options: { elsewhere?: boolean } = {}) {
  const api = hostApi(app.host);
  const server = (await api('PUT', '/mcp/servers/clock', config)) as { bundleID: string };
  await api('PUT', '/providers/script', { kind: 'scripted', displayName: 'Script', script: [{ toolCalls: [{ name: 'get-time', args: {} }] }, { text: 'Here is the time.' }] });
  await api('POST', '/chats', {
    providerId: 'script',
    model: 'scripted',
    title: 'Clock',
    tools: { mode: 'auto', selected: [{ bundleID: server.bundleID, slug: 'get-time', version: 'mcp' }] },
  });
  if (options.elsewhere) await api('POST', '/chats', { providerId: 'script', model: 'scripted', title: 'Elsewhere' });
  return { api, bundleID: server.bundleID };
}

/** At 1280×800, opens the chat, types the message, sends it, and allows the model's call when the approval asks. */
async function askAndAllow(page: Page, url: string, chat: string, message: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(url);
  await page.locator('.chat-list .list__item').filter({ hasText: chat }).click();
  await page.getByRole('textbox', { name: 'Message' }).pressSequentially(message);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Approve tool call' })).toBeVisible();
  await page.keyboard.press('Enter');
}

/** The relay the window loads ahead once it has shown an app, hidden, once it has loaded: its element, URL and page. */
async function relayLoadedAhead(page: Page) {
  const waiting = page.locator('body > iframe[hidden][src*="/app?standby"]');
  await expect(waiting).toHaveCount(1);
  const src = (await waiting.getAttribute('src'))!;
  // By its element, not its address: a relay in a card has the same one, and a search by URL could find that instead.
  const frame = (await (await waiting.elementHandle()).contentFrame())!;
  // Taken only once loaded: a person reads the first app a while before opening another.
  await frame.waitForLoadState('load');
  return { waiting, src, frame };
}

/** Shows the Clock chat again by way of another one: its card comes anew, as for a person coming back to it. */
async function showClockAgain(page: Page) {
  await page.locator('.chat-list .list__item').filter({ hasText: 'Elsewhere' }).click();
  await page.locator('.chat-list .list__item').filter({ hasText: 'Clock' }).click();
}

for (const example of ['server-basic-vanillajs', 'server-basic-react']) {
  test(`an MCP App in the chat (${example}): framed from its own origin, given the call’s input and result, calling its server’s tool through the approval, full screen and back`, async ({ app }) => {
    test.setTimeout(120_000);
    await chatWithApp(app, exampleServer(example));
    const { page } = app;
    // get-time does not say it only reads: the model's call waits for the person, as any such call does.
    await askAndAllow(page, app.host.url, 'Clock', 'What time is it?');
    await expect(page.getByRole('log')).toContainText('Here is the time.');

    const region = page.getByRole('region', { name: 'App of Get Time' });
    await expect(region).toBeVisible();
    const frameElement = region.locator('iframe');
    // Its own origin: a loopback port that is not the window's.
    const src = (await frameElement.getAttribute('src'))!;
    expect(new URL(src).origin).not.toBe(new URL(app.host.url).origin);
    const appFrame = page.frameLocator('.mcp-app__frame').frameLocator('iframe');
    // The result of the model's call reached the app: it shows the server time.
    await expect(appFrame.locator('body')).toContainText(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
    // The sandbox had the document the core read: the relay came with the app's frame loading it from the sandbox's
    // origin by digest (not written in after a round trip through the window), the app's origin opaque all the same.
    const served = page.frames().find((frame) => /\/doc\/[0-9a-f]{64}\?host=/.test(frame.url()));
    expect(served?.url().startsWith(new URL(src).origin)).toBe(true);
    expect(await served!.evaluate(() => window.origin)).toBe('null');
    await expect(region.getByText('Starting the app…')).toHaveCount(0);
    await page.screenshot(shot(`app-inline-${example}`));
    await page.setViewportSize({ width: 1000, height: 700 });
    await page.screenshot(shot(`app-inline-1000-${example}`));
    await page.setViewportSize({ width: 1280, height: 800 });

    // The app calls get-time itself: the person is asked first, as for any caller.
    await appFrame.getByRole('button', { name: 'Get Server Time' }).click();
    const approval = page.getByRole('dialog', { name: 'Approve tool call' });
    await expect(approval).toContainText('The app of Get Time wants to run Get Time');
    await approval.getByRole('button', { name: 'Allow once' }).click();
    await expect(approval).toBeHidden();

    // Full screen and back.
    await region.getByRole('button', { name: 'Full screen' }).click();
    await expect(region.getByRole('button', { name: 'Back to the chat' })).toBeVisible();
    await expect.poll(async () => (await frameElement.boundingBox())!.height).toBeGreaterThan(600);
    await page.screenshot(shot(`app-fullscreen-${example}`));
    await page.keyboard.press('Escape');
    await expect(region.getByRole('button', { name: 'Full screen' })).toBeVisible();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot(shot(`app-inline-dark-${example}`));
    await page.emulateMedia({ colorScheme: 'light' });

    // The app sends a message into the chat: it is the person's next message, and the model answers it.
    await appFrame.getByRole('button', { name: 'Send Message' }).click();
    await expect(page.getByRole('log').locator('.message--user').last()).toContainText('This is message text.');

    // Opened again later, the chat shows the app again with the call's result.
    await page.reload();
    await page.locator('.chat-list .list__item').filter({ hasText: 'Clock' }).click();
    await expect(page.frameLocator('.mcp-app__frame').first().frameLocator('iframe').locator('body')).toContainText(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
    expect(app.consoleErrors).toEqual([]);
  });
}

test('an app whose document the sandbox no longer holds still starts, in its own relay or in one loaded ahead: the relay asks the window for the text and writes it in', async ({ app }) => {
  test.setTimeout(120_000);
  await chatWithApp(app, BASIC_APP, { elsewhere: true });
  const { page } = app;
  // As after the sandbox's shelf let the document go: the relay page, or the document a relay loaded ahead is given,
  // is asked for by a digest the sandbox does not know.
  const unknown = '0'.repeat(64);
  await page.route(/\/app\?host=/, (route) => {
    const url = new URL(route.request().url());
    url.searchParams.set('doc', unknown);
    return route.continue({ url: url.toString() });
  });
  let documentsAsked = 0;
  await page.route(/\/doc\/[0-9a-f]{64}\?/, (route) => {
    documentsAsked++;
    return route.continue({ url: route.request().url().replace(/\/doc\/[0-9a-f]{64}/, `/doc/${unknown}`) });
  });
  const appBody = page.frameLocator('.mcp-app__frame').frameLocator('iframe').locator('body');
  const writtenIn = async () => {
    await expect(appBody).toContainText(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
    const written = page.frames().find((frame) => frame.url() === 'about:srcdoc' && frame.parentFrame()?.url().includes('/app?host='));
    expect(await written!.evaluate(() => window.origin)).toBe('null');
    expect(page.frames().some((frame) => frame.url().includes('/doc/'))).toBe(false);
  };
  await askAndAllow(page, app.host.url, 'Clock', 'What time is it?');
  await writtenIn();

  // The chat shown again once a relay waits: the card takes it, its document is missing, and it starts as above.
  await relayLoadedAhead(page);
  await showClockAgain(page);
  await writtenIn();
  expect(documentsAsked).toBeGreaterThan(0);
  expect(app.consoleErrors).toEqual([]);
});

test('the next app in a window starts in the relay the window loaded ahead for it, moved into its card with its page kept', async ({ app }) => {
  test.setTimeout(120_000);
  await chatWithApp(app, BASIC_APP, { elsewhere: true });
  const { page } = app;
  await askAndAllow(page, app.host.url, 'Clock', 'What time is it?');
  const appBody = page.frameLocator('.mcp-app__frame').frameLocator('iframe').locator('body');
  await expect(appBody).toContainText(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
  // Once the window had a moment after its first app: one relay waits, hidden, out of the way of keys and readers.
  const { waiting, src: waitingSrc, frame: waitingPage } = await relayLoadedAhead(page);
  expect(await waiting.getAttribute('aria-hidden')).toBe('true');
  // A mark in the waiting page, which only that page (not one loaded again) can show later.
  await waitingPage.evaluate(() => ((window as unknown as { waited: boolean }).waited = true));

  // The chat shown again: its card takes the waiting relay, which frames the app's document from the sandbox.
  await showClockAgain(page);
  await expect(appBody).toContainText(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
  const frameElement = page.getByRole('region', { name: 'App of Get Time' }).locator('iframe');
  expect(await frameElement.getAttribute('src')).toBe(waitingSrc);
  // The card's own frame, by its element: the relay loaded next in its place has the same address, so a search by
  // URL could find that one instead.
  const relay = await (await frameElement.elementHandle()).contentFrame();
  // Moved, not loaded again: the page is the one that waited, and it framed the document it was named.
  expect(await relay!.evaluate(() => (window as unknown as { waited?: boolean }).waited)).toBe(true);
  const served = relay!.childFrames().find((frame) => /\/doc\/[0-9a-f]{64}\?host=/.test(frame.url()));
  expect(await served!.evaluate(() => window.origin)).toBe('null');
  // And the next one waits in its place.
  await expect(waiting).toHaveCount(1);
  expect(await waiting.getAttribute('src')).toBe(waitingSrc);
  await expect(page.locator('iframe[src*="/app?standby"]')).toHaveCount(2);
  expect(app.consoleErrors).toEqual([]);
});

// The person trusts this server's hints (its apps say they only read), so the model's calls run without a yes.
const HOSTILE_APPS = { command: process.execPath, args: [path.join(PROJECT_ROOT, 'testing/servers/hostile-app-server.mjs')], askFirst: 'as-annotated' };

test('a hostile app stays in its sandbox: no top navigation, dialog, cookie, undeclared host or pop-up; its flood and garbage leave the chat responsive; a silent app is said not to have started', async ({ app }) => {
  test.setTimeout(150_000);
  const api = hostApi(app.host);
  const server = (await api('PUT', '/mcp/servers/hostile', HOSTILE_APPS)) as { bundleID: string };
  await api('PUT', '/providers/script', { kind: 'scripted', displayName: 'Script', script: [{ toolCalls: [{ name: 'hostile', args: {} }, { name: 'silent', args: {} }] }, { text: 'Both ran.' }] });
  await api('POST', '/chats', {
    providerId: 'script',
    model: 'scripted',
    title: 'Hostile',
    tools: { mode: 'auto', selected: ['hostile', 'silent'].map((slug) => ({ bundleID: server.bundleID, slug, version: 'mcp' })) },
  });
  const { page } = app;
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const popups: string[] = [];
  page.context().on('page', (opened) => popups.push(opened.url()));
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.goto(app.host.url);
  await page.locator('.chat-list .list__item').filter({ hasText: 'Hostile' }).click();
  await page.getByRole('textbox', { name: 'Message' }).pressSequentially('Run them');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('log')).toContainText('Both ran.');

  const hostile = page.getByRole('region', { name: 'App of Hostile app' });
  const inside = page.frameLocator('[title="App of Hostile app"]').frameLocator('iframe');
  await expect(inside.locator('#log')).toContainText('flooded', { timeout: 20_000 });
  const log = await inside.locator('#log').innerText();
  for (const blocked of ['top blocked', 'cookie blocked', 'fetch blocked', 'popup blocked']) expect(log).toContain(blocked);
  expect(log).not.toMatch(/top navigated|fetch went out|popup opened|cookie: /);
  // alert() returns in a frame without allow-modals, and nobody sees a dialog.
  expect(log).toContain('alert returned');
  expect(dialogs).toEqual([]);
  // Its message straight to the window (past the relay) was not taken for the app's: the tool ran once, for the model.
  const ran = (await api('GET', `/tools/bundles/${server.bundleID}/tools/hostile/version/mcp`)) as { usage: { callCount: number } };
  expect(ran.usage.callCount).toBe(1);
  expect(popups).toEqual([]);
  expect(new URL(page.url()).origin).toBe(new URL(app.host.url).origin);
  // The height it asked for is not the height it gets.
  expect((await hostile.locator('iframe').boundingBox())!.height).toBeLessThanOrEqual(600);
  // The chat still takes typing while and after the flood arrives.
  await page.getByRole('textbox', { name: 'Message' }).pressSequentially('still here');
  await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue('still here');
  // Nothing reached the undeclared host (the fixture aborts and records anything off loopback).
  expect(app.offLoopback).toEqual([]);

  // The silent one never said hello: its card says so, and the call's result is still there.
  const silent = page.getByRole('region', { name: 'App of Silent app' });
  await expect(silent.getByRole('alert')).toContainText('The app did not start', { timeout: 20_000 });
  await page.screenshot(shot('apps-hostile'));
});

/**
 * A chat at 1000×700 whose scripted model calls one app of the test server (hostile-app-server.mjs), then answers
 * `answer`; the person types `message` and sends it. `provider` may pace the model (chunkDelayMs).
 */
async function sendToTestApp(app: Parameters<Parameters<typeof test>[2]>[0]['app'], options: { title: string; tool: string; args?: Record<string, unknown>; answer: string; message: string; askFirst?: boolean; provider?: Record<string, unknown>; warm?: boolean }) {
  const api = hostApi(app.host);
  const server = (await api('PUT', '/mcp/servers/devices', HOSTILE_APPS)) as { bundleID: string };
  // The app's document, read once through its running server: what follows then times the app, not a first spawn.
  if (options.warm) await api('POST', '/mcp/servers/devices/resources/read', { uri: `ui://${options.tool}/app.html` });
  const script = [{ toolCalls: [{ name: options.tool, args: options.args ?? {} }] }, { text: options.answer }];
  await api('PUT', '/providers/script', { kind: 'scripted', displayName: 'Script', script, ...options.provider });
  const selected = [{ bundleID: server.bundleID, slug: options.tool, version: 'mcp', ...(options.askFirst ? { requiresApproval: true } : {}) }];
  await api('POST', '/chats', { providerId: 'script', model: 'scripted', title: options.title, tools: { mode: 'auto', selected } });
  const { page } = app;
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.goto(app.host.url);
  await page.locator('.chat-list .list__item').filter({ hasText: options.title }).click();
  await page.getByRole('textbox', { name: 'Message' }).pressSequentially(options.message);
  await page.keyboard.press('Enter');
  return page;
}

test('an app that declares the camera gets it only after the person allows it, in its card; the window keeps the answer', async ({ app }) => {
  test.setTimeout(120_000);
  const page = await sendToTestApp(app, { title: 'Camera', tool: 'camera', answer: 'It ran.', message: 'Take a look' });
  await expect(page.getByRole('log')).toContainText('It ran.');

  const card = page.getByRole('region', { name: 'App of Camera app' });
  const inside = () => page.frameLocator('[title="App of Camera app"]').frameLocator('iframe');
  // It runs at once, without the camera, and the card asks.
  await expect(inside().locator('#state')).toHaveText('camera blocked; host allowed none');
  const ask = card.getByRole('group', { name: 'Device access for this app' });
  await expect(ask).toContainText('This app asks to use your camera.');
  await page.screenshot(shot('app-permission-ask'));
  await ask.getByRole('button', { name: 'Allow', exact: true }).click();
  // Started again in a frame that has it: the app may use the camera, and was told so.
  await expect(inside().locator('#state')).toHaveText('camera usable; host allowed camera');
  await expect(card).toContainText('Allowed until Toolbelt closes: your camera.');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot(shot('app-permission-allowed-dark'));
  await page.emulateMedia({ colorScheme: 'light' });

  // Reloaded, the window has forgotten: the app runs without it and the card asks again; refused, it stays without.
  await page.reload();
  await page.locator('.chat-list .list__item').filter({ hasText: 'Camera' }).click();
  await expect(inside().locator('#state')).toHaveText('camera blocked; host allowed none');
  await card.getByRole('button', { name: "Don't allow" }).click();
  await expect(card).toContainText('Not allowed: your camera. The app runs without them.');
  await expect(inside().locator('#state')).toHaveText('camera blocked; host allowed none');
  expect(app.consoleErrors).toEqual([]);
});

test('an app whose call the person denies is told so (tool-cancelled), and its card says the call did not run', async ({ app }) => {
  const page = await sendToTestApp(app, { title: 'Denied', tool: 'camera', answer: 'Understood.', message: 'Take a look', askFirst: true });
  const approval = page.getByRole('dialog', { name: 'Approve tool call' });
  await approval.getByRole('button', { name: 'Deny' }).click();
  await expect(page.getByRole('log')).toContainText('Understood.');
  const inside = page.frameLocator('[title="App of Camera app"]').frameLocator('iframe');
  await expect(inside.locator('#heard')).toHaveText('cancelled: denied');
  await page.screenshot(shot('app-denied'));
});

test('an app gets its call’s arguments piece by piece while the model writes them (tool-input-partial), then whole', async ({ app }) => {
  const text = 'A long sentence that the model writes out slowly, a few characters at a time, so that the app can show it growing as it arrives.';
  // The scripted model streams the arguments in pieces of a dozen characters, 300 ms apart: the app starts meanwhile.
  // Its server is started and its document read before the message goes (a first spawn on CI's loaded machine once
  // took longer than the whole stream), so the pieces race only the frame's start.
  const page = await sendToTestApp(app, { title: 'Writer', tool: 'writer', args: { text }, answer: 'Written.', message: 'Write it', provider: { chunkDelayMs: 300 }, warm: true });
  // The card is there while the model writes, and says so.
  const card = page.getByRole('article', { name: 'Tool call Writer app' });
  await expect(card.getByRole('status')).toHaveText('Writing arguments…');
  await expect(page.getByRole('log')).toContainText('Written.');

  const heard = (await page.frameLocator('[title="App of Writer app"]').frameLocator('iframe').locator('#heard li').allInnerTexts());
  const partial = heard.filter((line) => line.startsWith('partial: ')).map((line) => line.slice('partial: '.length));
  // Pieces that grew as they came, each the start of the sentence and none of them the whole of it; then the whole.
  expect(partial.length).toBeGreaterThan(2);
  for (const piece of partial) expect(text.startsWith(piece)).toBe(true);
  expect(partial.some((piece) => piece.length > 0 && piece.length < text.length)).toBe(true);
  expect(heard.at(-1)).toBe(`whole: ${text}`);
  expect(heard.filter((line) => line.startsWith('whole: '))).toHaveLength(1);
  expect(app.consoleErrors).toEqual([]);
});

test('the tester shows an MCP tool’s app with each run, and the list says which tools have apps and which are for their app only', async ({ app }) => {
  test.setTimeout(120_000);
  const api = hostApi(app.host);
  await api('PUT', '/mcp/servers/clock', BASIC_APP);
  const { page } = app;
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(app.host.url);
  await page.keyboard.press('Control+2');
  await page.getByRole('region', { name: 'Bundles' }).getByRole('button', { name: /^clock/ }).click();
  await expect(page.getByRole('region', { name: 'Bundles' })).toContainText('1 tool with an app: Get Time');
  const row = page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: /^Get Time/ });
  await expect(row).toContainText('app');
  await row.click();
  const tester = page.getByRole('region', { name: 'Tester' });
  await tester.getByRole('button', { name: 'Run' }).click();
  // The person's own run does not ask first; the app gets its arguments and result.
  const appFrame = tester.frameLocator('.mcp-app__frame').frameLocator('iframe');
  await expect(appFrame.locator('body')).toContainText(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
  await expect(tester.getByRole('region', { name: 'Response' })).toContainText('ok');
  await page.screenshot(shot('app-in-tester'));
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.screenshot(shot('app-in-tester-narrow'));
  expect(app.consoleErrors).toEqual([]);
});

test('the PDF viewer app (server-pdf) shows a local PDF in the chat, reading its pages through the tools its server keeps for it', async ({ app }) => {
  test.setTimeout(150_000);
  const file = path.join(app.dataDir, 'hello.pdf');
  await writeFile(file, tinyPdf('Hello Toolbelt'));
  const api = hostApi(app.host);
  const server = (await api('PUT', '/mcp/servers/pdf', { command: process.execPath, args: [path.join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/server-pdf/dist/index.js'), '--stdio', file] })) as { bundleID: string };
  await api('PUT', '/providers/script', { kind: 'scripted', displayName: 'Script', script: [{ toolCalls: [{ name: 'display_pdf', args: { url: file } }] }, { text: 'Here it is.' }] });
  const chat = (await api('POST', '/chats', { providerId: 'script', model: 'scripted', title: 'Reading', tools: { mode: 'auto', selected: [{ bundleID: server.bundleID, slug: 'display_pdf', version: 'mcp' }] } })) as { id: string };
  const { page } = app;
  // display_pdf does not say it only reads: the model's call waits for the person.
  await askAndAllow(page, app.host.url, 'Reading', 'Show me the PDF');
  // The waits below are long because the app is heavy, not the host: its 4 MB document runs pdf.js without a worker
  // (a sandboxed frame's blob worker is refused, so pdf.js loads its worker's code on the page), ~4 s of one thread
  // on an idle machine, several times that beside a loaded CI run's other tests.
  await expect(page.getByRole('log')).toContainText('Here it is.', { timeout: 30_000 });
  const region = page.getByRole('region', { name: 'App of Display PDF' });
  await expect(region).toBeVisible();
  // pdf.js draws the page; its text layer says what is on it.
  await expect(page.frameLocator('.mcp-app__frame').frameLocator('iframe').getByText('Hello Toolbelt')).toBeVisible({ timeout: 60_000 });
  await page.screenshot(shot('app-pdf'));
  // What the viewer shows is what the model reads with the call's result next turn (ui/update-model-context).
  await expect.poll(async () => JSON.stringify(await api('GET', `/chats/${chat.id}`)), { timeout: 30_000 }).toContain('"appContext"');
  expect(app.consoleErrors).toEqual([]);
});
