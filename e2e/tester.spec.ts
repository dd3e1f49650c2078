import { clickBundleAction, hostApi } from './fixtures/api.js';
import { putHttpToolBundle, startHttpTarget } from './fixtures/http-target.js';
import { expect, test } from './fixtures/app.js';
import { openScriptedChat, send } from './fixtures/chat.js';
import { shot } from './fixtures/shots.js';

/** A weather-like server on 127.0.0.1: /weather/<city> answers with a list of days; /broken always fails. */
function startCityServer() {
  return startHttpTarget((request, response) => {
    const city = decodeURIComponent((request.url ?? '').split('/')[2] ?? '');
    if (request.url?.startsWith('/broken')) return void response.writeHead(503, { 'Content-Type': 'application/json' }).end('{"error":"down for maintenance"}');
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ city, days: Array.from({ length: 30 }, (_, index) => ({ day: index + 1, summary: index === 17 ? 'thunderstorm' : 'clear' })) }));
  });
}

function putWeatherTool(api: ReturnType<typeof hostApi>, target: string, path = 'weather') {
  return putHttpToolBundle(api, {
    target,
    bundle: { slug: 'weather-service', displayName: 'Weather service' },
    slug: 'weather',
    tool: {
      displayName: 'City weather',
      argSchema: { type: 'object', properties: { city: { type: 'string', title: 'City' } }, required: ['city'] },
      impl: { method: 'GET', urlTemplate: `http://${target}/${path}/\${city}` },
    },
  });
}

test('the tester as a workbench: response beside the arguments, find in the value, runs kept across a reload, run again, examples', async ({ app }) => {
  const { target, close } = await startCityServer();
  try {
    const api = hostApi(app.host);
    await putWeatherTool(api, target);
    const { page } = app;
    await page.setViewportSize({ width: 1600, height: 1000 });
    await page.goto(app.host.url);
    await page.keyboard.press('Control+2');
    await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: /^City weather/ }).click();
    const tester = page.getByRole('region', { name: 'Tester' });
    const form = tester.getByRole('form', { name: 'City weather' });
    await expect(tester.getByText('Run the tool to see its response here.')).toBeVisible();
    await expect(tester.getByText('None yet: fill in the arguments, then save them under a name.')).toBeVisible();

    await form.getByLabel('City').pressSequentially('Oslo');
    await page.keyboard.press('Control+Enter');
    const response = tester.getByRole('region', { name: 'Response' });
    await expect(response).toContainText('HTTP 200');
    // On a wide window the response sits beside the arguments.
    const formBox = (await form.boundingBox())!;
    const responseBox = (await response.boundingBox())!;
    expect(responseBox.x).toBeGreaterThan(formBox.x + formBox.width - 1);

    // Find in the value: the lines that hold the words, with their numbers.
    await response.getByRole('searchbox', { name: 'Find in value' }).pressSequentially('thunder');
    await expect(response.getByRole('status').filter({ hasText: 'line' })).toHaveText('1 line with “thunder”');
    await expect(response.getByRole('region', { name: 'Matches' })).toContainText('"summary": "thunderstorm"');
    await page.screenshot(shot('tester-wide'));
    // Esc in the find box clears it, and the whole value is back.
    await response.getByRole('searchbox', { name: 'Find in value' }).press('Escape');
    await expect(tester.getByTestId('tester-value')).toContainText('"Oslo"');

    // Saved as an example, under a name typed by the person.
    await tester.getByRole('button', { name: 'Save as example' }).click();
    await page.keyboard.type('Oslo in winter');
    await page.keyboard.press('Enter');
    await expect(tester.getByRole('list', { name: 'Examples' })).toContainText('Oslo in winter');

    await form.getByLabel('City').press('Control+a');
    await form.getByLabel('City').pressSequentially('Rome');
    await form.getByRole('button', { name: 'Run' }).click();
    await expect(tester.getByTestId('tester-value')).toContainText('"Rome"');
    const runs = tester.getByRole('list', { name: 'Past runs' });
    await expect(runs.getByRole('listitem')).toHaveCount(2);

    // After a reload the runs and examples are still there.
    await page.reload();
    await page.keyboard.press('Control+2');
    await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: /^City weather/ }).click();
    await expect(runs.getByRole('listitem')).toHaveCount(2);
    await expect(runs.getByRole('listitem').first()).toContainText('city=Rome');
    await expect(runs.getByRole('listitem').nth(1)).toContainText('city=Oslo');
    await runs.getByRole('listitem').nth(1).getByRole('button', { name: /city=Oslo/ }).click();
    await expect(tester.getByTestId('tester-value')).toContainText('"Oslo"');

    // Run again puts that run's arguments in the form and runs them.
    await runs.getByRole('listitem').nth(1).getByRole('button', { name: 'Run again' }).click();
    await expect(form.getByLabel('City')).toHaveValue('Oslo');
    await expect(runs.getByRole('listitem')).toHaveCount(3);
    await expect(runs.getByRole('listitem').first()).toContainText('city=Oslo');

    // An example fills the form.
    await form.getByLabel('City').press('Control+a');
    await form.getByLabel('City').pressSequentially('Lima');
    await tester.getByRole('list', { name: 'Examples' }).getByRole('button', { name: /^Oslo in winter/ }).click();
    await expect(form.getByLabel('City')).toHaveValue('Oslo');

    // Narrow and dark: the response comes first, above the arguments.
    await page.setViewportSize({ width: 1000, height: 700 });
    await page.emulateMedia({ colorScheme: 'dark' });
    const narrowForm = (await form.boundingBox())!;
    const narrowResponse = (await response.boundingBox())!;
    expect(narrowResponse.y).toBeLessThan(narrowForm.y);
    await page.screenshot(shot('tester-narrow-dark'));
    expect(app.consoleErrors).toEqual([]);
  } finally {
    close();
  }
});

test('"Open in tester" on a failed call in a chat brings its arguments along', async ({ app }) => {
  const { target, close } = await startCityServer();
  try {
    const api = hostApi(app.host);
    const bundleID = await putWeatherTool(api, target, 'broken');
    const { page } = app;
    await openScriptedChat(app, [{ toolCalls: [{ name: 'weather', args: { city: 'Tromsø' } }] }, { text: 'It failed.' }], [{ bundleID, slug: 'weather', version: 'v1' }]);
    await send(page, 'Weather in Tromsø?');
    const log = page.getByRole('log', { name: 'Messages' });
    await expect(log.getByRole('alert')).toContainText('http_status');
    await log.getByRole('button', { name: 'Open in tester' }).click();
    const form = page.getByRole('region', { name: 'Tester' }).getByRole('form', { name: 'City weather' });
    await expect(form.getByLabel('City')).toHaveValue('Tromsø');
    await form.getByRole('button', { name: 'Run' }).click();
    await expect(page.getByRole('region', { name: 'Response' })).toContainText('HTTP 503');
  } finally {
    close();
  }
});

test('a tool that streams events shows them arriving in the chat’s card and in the tester, then its list of events', async ({ app }) => {
  test.setTimeout(90_000);
  // Each request gets the first event at once and the rest when the test says: the card is seen while the stream is open.
  const releases: (() => void)[] = [];
  const server = await startHttpTarget((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/event-stream' });
    response.write('data: {"step": "compile"}\n\n');
    releases.push(() => response.end('event: done\ndata: {"step": "test"}\n\n'));
  });
  const api = hostApi(app.host);
  const bundleID = await putHttpToolBundle(api, {
    target: server.target,
    bundle: { slug: 'builds', displayName: 'Builds' },
    slug: 'build-status',
    tool: { displayName: 'Build status', argSchema: { type: 'object', properties: {} }, impl: { method: 'GET', urlTemplate: `http://${server.target}/build`, responseEncoding: 'sse' } },
  });
  const { page } = app;
  await openScriptedChat(app, [{ toolCalls: [{ name: 'build-status', args: {} }] }, { text: 'The build passed.' }], [{ bundleID, slug: 'build-status', version: 'v1' }]);
  await send(page, 'how is the build?');
  const card = page.getByRole('article', { name: /Tool call Build status/ });
  await expect(card).toContainText('1 · {"step":"compile"}');
  await page.screenshot(shot('sse-card-running'));
  releases.shift()!();
  await expect(card.getByRole('status')).toHaveText('Succeeded');
  await expect(page.getByRole('log', { name: 'Messages' })).toContainText('The build passed.');

  await page.keyboard.press('Control+2');
  await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: /^Build status/ }).click();
  const tester = page.getByRole('region', { name: 'Tester' });
  await tester.getByRole('button', { name: 'Run' }).click();
  await expect(tester).toContainText('{"step":"compile"}');
  await expect.poll(() => releases.length).toBe(1);
  releases.shift()!();
  await expect(tester.getByTestId('tester-value')).toContainText('"step": "test"');
  server.close();
  expect(app.consoleErrors).toEqual([]);
});

test('an answer that drifts from its outputSchema: the tester shows it whole beside what does not match; taken with a warning once the bundle says so', async ({ app }) => {
  test.setTimeout(90_000);
  const server = await startHttpTarget((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ city: 'Paris', population: 2.1, mayor: 'someone' }));
  });
  const api = hostApi(app.host);
  const bundleID = await putHttpToolBundle(api, {
    target: server.target,
    bundle: { slug: 'cities', displayName: 'Cities' },
    slug: 'city',
    tool: {
      displayName: 'City facts',
      argSchema: { type: 'object', properties: {} },
      outputSchema: { type: 'object', properties: { city: { type: 'string' }, population: { type: 'integer' } } },
      impl: { method: 'GET', urlTemplate: `http://${server.target}/city` },
    },
  });
  const { page } = app;
  await page.setViewportSize({ width: 1000, height: 700 });
  await page.goto(app.host.url);
  await page.keyboard.press('Control+2');
  await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: /^City facts/ }).click();
  const tester = page.getByRole('region', { name: 'Tester' });
  await tester.getByRole('button', { name: 'Run' }).click();
  const response = tester.getByRole('region', { name: 'Response' });
  await expect(response.getByRole('alert')).toContainText('/population must be');
  // The whole answer, to read and search, beside the paths that do not match.
  await expect(response.getByRole('heading', { name: /What it answered/ })).toBeVisible();
  await expect(response.getByTestId('tester-value')).toContainText('someone');
  await page.screenshot(shot('tester-output-mismatch'));

  // The person lets this bundle take such answers, by keyboard.
  await clickBundleAction(page, 'Cities', 'Connection of bundle');
  const dialog = page.getByRole('dialog', { name: 'Connection of Cities' });
  const take = dialog.getByRole('checkbox', { name: /Take answers that do not match/ });
  await take.focus();
  await page.keyboard.press('Space');
  await expect(take).toBeChecked();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();

  await page.keyboard.press('Control+1');
  await openScriptedChat(app, [{ toolCalls: [{ name: 'city', args: {} }] }, { text: 'Paris has about two million people.' }], [{ bundleID, slug: 'city', version: 'v1' }]);
  await send(page, 'tell me about Paris');
  const card = page.getByRole('article', { name: /Tool call City facts/ });
  await expect(card).toContainText('Taken with a warning: 1 part of the answer does not match the tool\'s outputSchema.');
  await expect(card.getByRole('status')).toHaveText('Succeeded');
  await expect(page.getByRole('log', { name: 'Messages' })).toContainText('Paris has about two million people.');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot(shot('card-output-mismatch-dark'));
  server.close();
  expect(app.consoleErrors).toEqual([]);
});
