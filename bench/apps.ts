import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Frame, type Page } from '@playwright/test';
import { hostApi, PROJECT_ROOT, spawnHost } from '../testing/cores/spawned-host.js';
import { makeTempDir } from '../testing/cores/temp-dir.js';
import { CHROMIUM_ARGS, findChromium } from '../scripts/chromium.mjs';
import { armTwin, firstPaintAt, insertPlainFrame, scrollThrough, takeCardTimes, watchToolCards } from './apps-page.js';
import { skipped } from './figures-file.js';
import { percentile, report, sized } from './stats.js';
import { takeLongestTask, watchLongTasks } from './ui-page.js';

/** Rounds of each first-paint figure: the window's first, then the ones its median is of. */
const ROUNDS = sized(9, 3);
const CARDS = sized(20, 2);
/** The MCP Apps SDK's published example: its app is one 218 KB document with the SDK inside. */
const EXAMPLE = path.join(PROJECT_ROOT, 'node_modules/@modelcontextprotocol/server-basic-vanillajs/dist');

/** The app documents in the page: inner frames of relay frames (served by digest, or written in as srcdoc). */
function appFrames(page: Page, sandboxOrigin: string): Frame[] {
  return page
    .frames()
    .filter((frame) => (frame.url() === 'about:srcdoc' || frame.url().startsWith(`${sandboxOrigin}/doc/`)) && frame.parentFrame()?.url().startsWith(`${sandboxOrigin}/app?`));
}

async function until<T>(read: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  for (let tries = 0; tries < 600; tries++) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`bench apps: ${what} did not appear`);
}

/**
 * MCP Apps in the window, in Chromium against the browser host, with the
 * SDK's published example app: the time from its call's card entering the
 * chat to the app's first contentful paint (through the core's resource
 * read, the sandbox origin's relay and the app's document) against the same
 * document in a plain iframe put into the chat the moment a call's card
 * enters, as a host without a sandbox would show it at the earliest (the
 * goal's line: what our way of showing an app costs over the plain way, from
 * the same moment of a chat);
 * beside it, the same plain iframe in an idle page, which leaves out what the
 * chat itself does as a call's card enters. And the longest task while a chat
 * of 20 app cards is scrolled through and back, against the same scroll over
 * 20 plain iframes of the document.
 */
export async function benchApps(): Promise<boolean> {
  const executablePath = findChromium();
  if (!executablePath) {
    skipped.add('apps');
    console.log('apps    skipped: no Chromium (apt-get install chromium, or set PLAYWRIGHT_CHROMIUM_EXECUTABLE)');
    return true;
  }
  const html = await readFile(path.join(EXAMPLE, 'mcp-app.html'), 'utf8');
  const plainServer = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(html);
  });
  await new Promise<void>((resolve) => plainServer.listen(0, '127.0.0.1', resolve));
  const plainUrl = `http://127.0.0.1:${(plainServer.address() as AddressInfo).port}/app.html`;
  const temp = await makeTempDir('toolbelt-bench-apps-');
  const host = await spawnHost(['--data-dir', temp.dir], { timeoutMs: 120_000 });
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  const met: boolean[] = [];
  try {
    const call = hostApi(host);
    const sandboxOrigin = ((await call('GET', '/app/info')) as { appSandboxOrigin: string }).appSandboxOrigin;
    // The example's get-time does not say it only reads, so it would ask first; the person said not to, as a person may.
    const config = { command: process.execPath, args: [path.join(EXAMPLE, 'index.js'), '--stdio'], askFirst: 'never' };
    const server = (await call('PUT', '/mcp/servers/clock', config)) as { bundleID: string };
    const tools = { mode: 'auto', selected: [{ bundleID: server.bundleID, slug: 'get-time', version: 'mcp' }] };
    await call('PUT', '/providers/one', { kind: 'scripted', displayName: 'One', script: [{ toolCalls: [{ name: 'get-time', args: {} }] }, { text: 'Done.' }] });
    await call('PUT', '/providers/many', { kind: 'scripted', displayName: 'Many', script: [{ toolCalls: Array.from({ length: CARDS }, () => ({ name: 'get-time', args: {} })) }, { text: 'Done.' }] });
    for (let round = 0; round < ROUNDS; round++) await call('POST', '/chats', { providerId: 'one', model: 'scripted', title: `Paint ${round}`, tools });
    // A tool without an app, answering at once, for the twin's rounds: the chat does the same work but for the app.
    const twinBundle = '01a20000-0000-7000-8000-00000000a99a';
    await call('PATCH', '/settings', { allowedHosts: [new URL(plainUrl).host] });
    await call('PUT', `/tools/bundles/${twinBundle}`, { slug: 'twin', displayName: 'Twin' });
    await call('PUT', `/tools/bundles/${twinBundle}/tools/plain-time/version/v1`, { displayName: 'Plain time', type: 'http', argSchema: { type: 'object' }, impl: { method: 'GET', urlTemplate: plainUrl } });
    await call('PUT', '/providers/twin', { kind: 'scripted', displayName: 'Twin', script: [{ toolCalls: [{ name: 'plain-time', args: {} }] }, { text: 'Done.' }] });
    const twinTools = { mode: 'auto', selected: [{ bundleID: twinBundle, slug: 'plain-time', version: 'v1' }] };
    for (let round = 0; round < ROUNDS; round++) await call('POST', '/chats', { providerId: 'twin', model: 'scripted', title: `Twin ${round}`, tools: twinTools });
    await call('POST', '/chats', { providerId: 'many', model: 'scripted', title: 'App cards', tools });

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(watchLongTasks);
    await context.addInitScript(watchToolCards);
    const page = await context.newPage();
    await page.goto(host.url);
    const send = async (title: string, at = page) => {
      await at.getByRole('navigation', { name: 'Chats' }).getByRole('button', { name: new RegExp(`^${title}`) }).click();
      await at.getByRole('textbox', { name: 'Message' }).pressSequentially('go');
      await at.keyboard.press('Enter');
      await at.getByRole('log', { name: 'Messages' }).getByText('Done.').waitFor({ timeout: 60_000 });
    };

    // 1. First paint: from the call's card entering the chat to the app's first contentful paint, and the twin: the
    // same plain iframe as in the idle page below, put into the chat the moment a call's card enters, in a window of its
    // own that does not hold the window's policy to it (which frames the sandbox's origin only). Rounds alternate
    // between the two, so both meet the machine as it is at that moment. Round 0 is each window's first (the app's
    // process starts); the medians are of the rest, as every app after a window's first finds its process started.
    const twinContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    await twinContext.addInitScript(watchToolCards);
    const twinPage = await twinContext.newPage();
    await twinPage.goto(host.url);
    const ours: number[] = [];
    const twins: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Headless Chromium paints only the page in front.
      await page.bringToFront();
      await page.evaluate(takeCardTimes);
      await send(`Paint ${round}`);
      const cardAt = await until(async () => (await page.evaluate(takeCardTimes)).at(-1), "the call's card");
      const frame = await until(() => appFrames(page, sandboxOrigin).at(-1), 'the app document');
      ours.push((await frame.evaluate(firstPaintAt)) - cardAt);

      await twinPage.bringToFront();
      // The same URL each round, as the app's and the idle page's: the last round's frame was taken away.
      await twinPage.evaluate(armTwin, plainUrl);
      await send(`Twin ${round}`, twinPage);
      const insertedAt = await until(async () => (await twinPage.evaluate(takeCardTimes)).at(-1), "the twin's card");
      const twin = await until(() => twinPage.frames().find((each) => each.url() === plainUrl), 'the twin document');
      twins.push((await twin.evaluate(firstPaintAt)) - insertedAt);
    }
    await twinContext.close();
    const plain = await context.newPage();
    // Headless Chromium paints only the page in front.
    await plain.bringToFront();
    await plain.setContent('<!doctype html><title>plain</title><body></body>');
    const plainFirstPaint = async (sandbox: string | null) => {
      const times: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        // A page of its own each round, so the frame found is this round's.
        await plain.setContent('<!doctype html><title>plain</title><body></body>');
        const insertedAt = await plain.evaluate(insertPlainFrame, { url: plainUrl, sandbox });
        const frame = await until(() => plain.frames().find((each) => each.url() === plainUrl), 'the plain frame');
        times.push((await frame.evaluate(firstPaintAt)) - insertedAt);
      }
      return percentile(times, 50);
    };
    console.log('ours', ours.map(Math.round).join(' '), 'twins', twins.map(Math.round).join(' '));
    const median = percentile(ours.slice(1), 50);
    const plainMedian = await plainFirstPaint(null);
    const twinMedian = percentile(twins.slice(1), 50);
    const twinName = "same document, plain iframe put in the chat as a call's card enters";
    met.push(report({ section: 'apps', name: "call's card to the app's first paint, median", ours: median, limit: twinMedian, limitName: twinName, goalRatio: 1.5 }));
    report({ section: 'apps', name: "the window's first app (its process starts)", ours: ours[0]!, limit: twinMedian, limitName: twinName });
    report({ section: 'apps', name: 'the median, against an idle page', ours: median, limit: plainMedian, limitName: 'same document, plain iframe in an idle page' });
    // Beside it, what the sandbox itself costs: the same plain frame with the app's opaque origin (no allow-same-origin).
    report({ section: 'apps', name: 'the median, against a sandboxed idle page', ours: median, limit: await plainFirstPaint('allow-scripts allow-forms'), limitName: 'plain iframe, opaque origin as the app, idle page' });

    // 2. Twenty app cards scrolled through and back: the longest task, against 20 plain frames of the document.
    await page.bringToFront();
    await send('App cards');
    // Scrolled once the twenty apps started (each answered the handshake and said its size), as a person scrolls a
    // chat they read: the apps' loading is measured above, and cards still growing would move the list under the scroll.
    await until(() => (appFrames(page, sandboxOrigin).length >= CARDS ? true : undefined), 'every app card');
    await page.getByText('Starting the app…').first().waitFor({ state: 'detached', timeout: 60_000 });
    await page.evaluate(takeLongestTask);
    const steps = await page.evaluate(scrollThrough, { selector: '.message-list', step: 300 });
    const scrolled = await page.evaluate(takeLongestTask);
    await plain.bringToFront();
    await plain.setContent('<!doctype html><title>plain</title><body></body>');
    for (let index = 0; index < CARDS; index++) await plain.evaluate(insertPlainFrame, { url: plainUrl, sandbox: null });
    await until(() => (plain.frames().filter((each) => each.url() === plainUrl).length >= CARDS ? true : undefined), 'the plain frames');
    await plain.evaluate(watchLongTasks);
    await plain.evaluate(scrollThrough, { selector: null, step: 300 });
    const plainScrolled = await plain.evaluate(takeLongestTask);
    met.push(report({ section: 'apps', name: `${CARDS} app cards scrolled (${steps} steps): longest task`, ours: Math.max(scrolled, 1), limit: Math.max(plainScrolled, 1), limitName: `${CARDS} plain iframes scrolled (≥ 1 ms)`, goalAbsoluteMs: 50 }));
  } finally {
    await browser.close();
    host.child.kill('SIGTERM');
    await host.exited;
    plainServer.close();
    await temp.cleanup();
  }
  return met.every(Boolean);
}
