import AxeBuilder from '@axe-core/playwright';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Locator, Page } from '@playwright/test';
import { v7 as uuidv7 } from 'uuid';
import { hostApi } from './fixtures/api.js';
import { expect, test } from './fixtures/app.js';
import { openScriptedChat, send } from './fixtures/chat.js';
import { startHttpTarget } from './fixtures/http-target.js';
import { fullShot, shot } from './fixtures/shots.js';
import { typeOver } from './fixtures/typing.js';

const object = (properties: Record<string, unknown>) => ({ type: 'object', properties, required: Object.keys(properties), additionalProperties: false });

/** Three loopback APIs a trip needs: a city's place, the weather there, Celsius to Fahrenheit (400 for a value that is not a number). */
async function travelTarget() {
  const seen: string[] = [];
  // While set, the weather API waits for it before it answers (a slow step, to watch a run as it goes).
  const gate: { weather: Promise<void> | null } = { weather: null };
  const server = await startHttpTarget((request, response) => void answer(request, response));
  async function answer(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://x');
    seen.push(url.pathname);
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname === '/geo') return json(200, { results: [{ name: url.searchParams.get('city'), lat: 59.91, lon: 10.75 }] });
    if (url.pathname === '/weather') {
      await gate.weather;
      return json(200, { tempC: 5 });
    }
    const c = Number(url.searchParams.get('c'));
    return Number.isFinite(c) ? json(200, { f: c * 1.8 + 32 }) : json(400, { error: 'c is not a number' });
  }
  return {
    ...server,
    seen,
    /** Holds the weather API's answers until the returned function is called. */
    holdWeather: () => {
      let release = () => {};
      gate.weather = new Promise<void>((resolve) => (release = resolve));
      return () => {
        gate.weather = null;
        release();
      };
    },
  };
}

/** A step dragged by its handle onto another, with the mouse as a person does it. */
async function dragStep(page: Page, from: Locator, to: Locator) {
  const handle = await from.locator('.recipe-step__handle').boundingBox();
  const target = await to.getByRole('heading').boundingBox();
  if (!handle || !target) throw new Error('the step or its handle is not on screen');
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(target.x + 10, target.y + target.height / 2, { steps: 8 });
  await page.mouse.up();
}

/** A bundle "Travel" of the three HTTP tools, its host allowed. */
async function travelBundle(host: Parameters<typeof hostApi>[0], target: string): Promise<string> {
  const api = hostApi(host);
  const bundleID = uuidv7();
  await api('PATCH', '/settings', { allowedHosts: [target] });
  await api('PUT', `/tools/bundles/${bundleID}`, { slug: 'travel', displayName: 'Travel' });
  const http = (slug: string, displayName: string, description: string, path: string, args: Record<string, unknown>) =>
    api('PUT', `/tools/bundles/${bundleID}/tools/${slug}/version/v1`, {
      type: 'http',
      displayName,
      description,
      argSchema: object(args),
      impl: { method: 'GET', urlTemplate: `http://${target}${path}`, query: Object.fromEntries(Object.keys(args).map((name) => [name, `\${${name}}`])) },
    });
  await http('geocode', 'Geocode', 'Find where a city is', '/geo', { city: { type: 'string' } });
  await http('weather', 'Current weather', 'The temperature at a place', '/weather', { lat: { type: 'number' }, lon: { type: 'number' } });
  await http('to-fahrenheit', 'To Fahrenheit', 'Convert Celsius to Fahrenheit', '/convert', { c: { type: 'number' } });
  return bundleID;
}

test('a person builds a three-step recipe by keyboard, runs it, fixes the failing step and runs again from it; then a model calls it from a chat', async ({ app }) => {
  test.setTimeout(150_000);
  const target = await travelTarget();
  try {
    const bundleID = await travelBundle(app.host, target.target);
    const { page } = app;
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(app.host.url);
    await page.keyboard.press('Control+2');
    await page.getByRole('region', { name: 'Bundles' }).getByRole('button', { name: /^Travel/ }).click();
    await page.getByRole('region', { name: 'Tools' }).getByRole('button', { name: 'New tool' }).click();
    const editor = page.getByRole('region', { name: 'Tool editor' });
    await typeOver(editor.getByLabel('Display name'), 'Trip weather');
    await editor.getByLabel('Type').selectOption('recipe');
    const recipe = editor.getByRole('group', { name: 'Recipe' });

    // The input the recipe asks for.
    await recipe.getByRole('button', { name: 'Add an input' }).press('Enter');
    await typeOver(recipe.getByLabel('Name', { exact: true }), 'city');

    // Step 1, found by search and picked with the keyboard; its "city" is taken from the input of that name.
    const search = recipe.getByRole('combobox', { name: 'Tool for step 1' });
    await search.pressSequentially('city');
    await expect(recipe.getByRole('option', { name: 'Geocode geocode Travel' })).toBeVisible();
    await search.press('Enter');
    const steps = recipe.getByRole('list', { name: 'Steps' });
    const first = steps.getByRole('listitem').nth(0);
    await expect(first.getByRole('heading', { name: 'Step 1 · Geocode' })).toBeVisible();
    await expect(first.getByRole('combobox', { name: /^city/ })).toHaveValue('${inputs.city}');

    // A trial run shows what the step answers; the next step's arguments are then picked from it by name.
    const tester = editor.getByRole('region', { name: 'Tester' });
    await typeOver(tester.getByRole('form', { name: 'Trip weather (draft)' }).getByLabel('city'), 'Oslo');
    await tester.getByRole('button', { name: 'Run', exact: true }).press('Enter');
    await expect(tester.getByText('Step 1 · geocode ·')).toBeVisible();

    await recipe.getByRole('button', { name: 'Add a step' }).press('Enter');
    await recipe.getByRole('combobox', { name: 'Tool for step 2' }).pressSequentially('weather');
    await expect(recipe.getByRole('option', { name: 'Current weather weather Travel' })).toBeVisible();
    await page.keyboard.press('Enter');
    const second = steps.getByRole('listitem').nth(1);
    await expect(second.getByRole('combobox', { name: /^lat/ })).toHaveValue('${steps.geocode.result.results[0].lat}');
    await expect(second.getByRole('combobox', { name: /^lat/ }).locator('option:checked')).toHaveText('result.results[0].lat = 59.91');
    await expect(second.getByRole('combobox', { name: /^lon/ })).toHaveValue('${steps.geocode.result.results[0].lon}');

    // Step 3 with a value typed by mistake: the builder says it does not fit, and the run fails at that step.
    await recipe.getByRole('button', { name: 'Add a step' }).press('Enter');
    await recipe.getByRole('combobox', { name: 'Tool for step 3' }).pressSequentially('fahrenheit');
    await expect(recipe.getByRole('option', { name: 'To Fahrenheit to-fahrenheit Travel' })).toBeVisible();
    await page.keyboard.press('Enter');
    const third = steps.getByRole('listitem').nth(2);
    await expect(recipe.getByText('1 argument still missing')).toBeVisible();
    await third.getByRole('combobox', { name: /^c/ }).selectOption({ label: 'A fixed value' });
    await third.getByRole('textbox', { name: 'Fixed value of c' }).pressSequentially('five');
    await expect(third.getByText('Step 3 (to_fahrenheit): "c" takes number, and gets string.')).toBeVisible();
    await expect(recipe.getByText('1 value does not fit its type')).toBeVisible();

    // The output: one named field.
    await recipe.getByRole('button', { name: 'Add a field' }).press('Enter');
    await typeOver(recipe.getByRole('textbox', { name: 'Field', exact: true }), 'report');
    await recipe.getByRole('combobox', { name: 'Value of report' }).selectOption({ label: 'A template or JSONPath…' });
    const template = recipe.getByRole('textbox', { name: 'Template of Value of report' });
    await typeOver(template, '${inputs.city}: ${steps.to_fahrenheit.result.f');
    // Half-written, the draft cannot run: the tester says why and waits, and runs once it is whole.
    await expect(tester.getByText('The tester runs this draft once its problems are fixed.')).toBeVisible();
    await expect(tester.getByRole('button', { name: 'Run', exact: true })).toBeDisabled();
    await tester.scrollIntoViewIfNeeded();
    await page.screenshot(shot('recipe-tester-waits'));
    await template.pressSequentially('} °F');
    await expect(tester.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
    await page.screenshot(fullShot('recipe-builder'));

    target.seen.length = 0;
    // The run shows how far it has got while it goes: held at the weather step.
    const release = target.holdWeather();
    await tester.getByRole('button', { name: 'Run', exact: true }).press('Enter');
    await expect(tester.getByText('Step 2 of 3 · weather')).toBeVisible();
    release();
    // The step's arguments are checked against its tool's schema before anything is sent.
    await expect(tester.getByText('Step 3 (to_fahrenheit) failed: To Fahrenheit: invalid_args: Invalid arguments for To Fahrenheit: /c must be a number', { exact: false }).first()).toBeVisible();
    expect(target.seen).toEqual(['/geo', '/weather']);

    // The fix: c from the weather step's answer, picked in the list where the last run's value shows.
    await third.getByRole('combobox', { name: /^c/ }).selectOption({ label: 'result.tempC = 5' });
    await expect(recipe.getByText('Every step has what it needs.')).toBeVisible();
    target.seen.length = 0;
    await tester.getByRole('button', { name: 'Run again from step to_fahrenheit' }).press('Enter');
    await expect(tester.getByTestId('tester-value')).toContainText('Oslo: 41 °F');
    expect(target.seen).toEqual(['/convert']);
    await expect(tester.getByText('from the last run').first()).toBeVisible();
    await page.screenshot(fullShot('recipe-trial-run'));

    // Steps move by keyboard (Alt+↑ inside a step) and by drag; a step moved before the one it needs is said at once.
    await third.getByRole('button', { name: 'Change tool' }).focus();
    await page.keyboard.press('Alt+ArrowUp');
    await expect(steps.getByRole('listitem').nth(1).getByRole('heading')).toHaveText('Step 2 · To Fahrenheit');
    await expect(recipe.getByText('${steps.weather.result.tempC}: step "weather" runs later; a step can use only the results of steps before it.').first()).toBeVisible();
    await page.keyboard.press('Alt+ArrowDown');
    await expect(steps.getByRole('listitem').nth(2).getByRole('heading')).toHaveText('Step 3 · To Fahrenheit');
    // Tall enough for the three steps at once: a person drags between what they see.
    await page.setViewportSize({ width: 1280, height: 2400 });
    await steps.scrollIntoViewIfNeeded();
    await dragStep(page, steps.getByRole('listitem').nth(2), steps.getByRole('listitem').nth(0));
    await expect(steps.getByRole('listitem').nth(0).getByRole('heading')).toHaveText('Step 1 · To Fahrenheit');
    // And back by keyboard, two places down.
    await steps.getByRole('listitem').nth(0).getByRole('button', { name: 'Change tool' }).focus();
    await page.keyboard.press('Alt+ArrowDown');
    await page.keyboard.press('Alt+ArrowDown');
    await expect(steps.getByRole('listitem').nth(2).getByRole('heading')).toHaveText('Step 3 · To Fahrenheit');
    await expect(recipe.getByText('Every step has what it needs.')).toBeVisible();
    // Each step's title is whole at 1280 px ("Step 1 · To Fahrenheit", not "Step 1 · T…").
    for (const heading of await steps.getByRole('heading').all()) {
      expect(await heading.evaluate((element) => element.scrollWidth <= element.clientWidth && element.getBoundingClientRect().width > 120)).toBe(true);
    }
    await steps.screenshot(shot('recipe-steps'));
    await page.setViewportSize({ width: 1280, height: 900 });

    const axe = await new AxeBuilder({ page }).exclude('.monaco-editor').analyze();
    expect(axe.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([]);

    await editor.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('button', { name: 'New version…' })).toBeVisible();
    await expect(page.getByText('A recipe of 3 steps')).toBeVisible();

    // A model calls the recipe like any tool; its steps show folded in the card.
    await page.keyboard.press('Control+1');
    await openScriptedChat(app, [{ toolCalls: [{ name: 'trip-weather', args: { city: 'Bergen' } }] }, { text: 'It is 41 °F in Bergen.' }], [{ bundleID, slug: 'trip-weather', version: 'v1' }]);
    await send(page, 'How warm is Bergen?');
    await expect(page.getByText('It is 41 °F in Bergen.')).toBeVisible();
    await page.getByText(/^Steps · 3 steps/).click();
    await expect(page.getByText('Step 3 · to_fahrenheit ·')).toBeVisible();
    await page.getByText(/^Arguments and result/).click();
    await expect(page.getByText('Bergen: 41 °F').first()).toBeVisible();
    await page.screenshot(shot('recipe-in-chat'));
    expect(app.consoleErrors).toEqual([]);
  } finally {
    target.close();
  }
});

test('"Save as recipe" turns a chat’s tool calls into a recipe, with the values passed between them found, for the person to check and run', async ({ app }) => {
  test.setTimeout(120_000);
  const target = await travelTarget();
  try {
    const bundleID = await travelBundle(app.host, target.target);
    const { page } = app;
    await page.setViewportSize({ width: 1280, height: 900 });
    const tools = ['geocode', 'weather', 'to-fahrenheit'].map((slug) => ({ bundleID, slug, version: 'v1' }));
    await openScriptedChat(
      app,
      [
        { toolCalls: [{ name: 'geocode', args: { city: 'Oslo' } }] },
        { toolCalls: [{ name: 'weather', args: { lat: 59.91, lon: 10.75 } }] },
        { toolCalls: [{ name: 'to-fahrenheit', args: { c: 5 } }] },
        { text: 'It is 41 °F in Oslo.' },
      ],
      tools,
    );
    await send(page, 'How warm is Oslo, in Fahrenheit?');
    await expect(page.getByText('It is 41 °F in Oslo.')).toBeVisible();

    await page.getByRole('button', { name: 'Save as recipe…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save as recipe' });
    await expect(dialog.getByText('3 calls chosen')).toBeVisible();
    await expect(dialog.getByLabel('Name')).toHaveValue('Geocode → Current weather → To Fahrenheit');
    await typeOver(dialog.getByLabel('Name'), 'Oslo in Fahrenheit');
    await expect(dialog.getByLabel('Bundle')).toHaveValue(bundleID);
    await page.screenshot(shot('save-as-recipe'));
    await dialog.getByRole('button', { name: 'Open in the builder' }).click();

    // The builder opens on it: the first call's argument is an input, what came from a result refers to it.
    const editor = page.getByRole('region', { name: 'Tool editor' });
    await expect(editor.getByLabel('Type', { exact: true }).first()).toHaveValue('recipe');
    const steps = editor.getByRole('list', { name: 'Steps' });
    await expect(steps.getByRole('listitem')).toHaveCount(3);
    await expect(steps.getByRole('listitem').nth(0).getByRole('combobox', { name: /^city/ })).toHaveValue('${inputs.city}');
    await expect(steps.getByRole('listitem').nth(1).getByRole('textbox', { name: 'Template of lat' })).toHaveValue('${steps.geocode.result.results[0].lat}');
    await expect(steps.getByRole('listitem').nth(2).getByRole('textbox', { name: 'Template of c' })).toHaveValue('${steps.weather.result.tempC}');

    const tester = editor.getByRole('region', { name: 'Tester' });
    await typeOver(tester.getByRole('form', { name: 'Oslo in Fahrenheit (draft)' }).getByLabel('city'), 'Bergen');
    await tester.getByRole('button', { name: 'Run', exact: true }).press('Enter');
    await expect(tester.getByTestId('tester-value')).toContainText('41');
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('A recipe of 3 steps')).toBeVisible();
    expect(app.consoleErrors).toEqual([]);
  } finally {
    target.close();
  }
});
