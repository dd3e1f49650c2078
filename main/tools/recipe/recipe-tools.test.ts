import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { waitFor } from '../../../testing/harness/mcp-share-harness.js';
import { v7 as uuidv7 } from 'uuid';
import { expectOk } from '../../../testing/harness/invoke-harness.js';
import { nextQuestion } from '../../../testing/harness/live-questions.js';
import { startTestCore, type TestCore } from '../../../testing/harness/test-core.js';

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => servers.splice(0).forEach((server) => server.close()));

/** Three loopback APIs: a city's place, the weather at a place, and Celsius to Fahrenheit; `failWeather` makes the second answer 503. */
async function travelApis() {
  const state = { failWeather: false, seen: [] as string[] };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    state.seen.push(url.pathname);
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname === '/geo') {
      const city = url.searchParams.get('city');
      return json(200, { results: city === 'Atlantis' ? [] : [{ name: city, lat: 59.91, lon: 10.75 }] });
    }
    if (url.pathname === '/weather') return state.failWeather ? json(503, { error: 'busy' }) : json(200, { tempC: Number(url.searchParams.get('lat')) > 50 ? 5 : 25 });
    if (url.pathname === '/convert') return json(200, { f: Number(url.searchParams.get('c')) * 1.8 + 32 });
    json(404, {});
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, state };
}

const object = (properties: Record<string, unknown>, required = Object.keys(properties)): Record<string, unknown> => ({ type: 'object', properties, required, additionalProperties: false });

/** A bundle of the three HTTP tools, and a function that writes recipes into it. */
async function travelBundle(core: TestCore, base: string) {
  const bundleID = uuidv7();
  await core.call('bundles.put', { bundleID, slug: 'travel', displayName: 'Travel' });
  const http = (slug: string, displayName: string, path: string, argSchema: Record<string, unknown>, outputSchema?: Record<string, unknown>, requiresApproval = false, version = 'v1') =>
    core.call('tools.put', {
      bundleID,
      toolSlug: slug,
      version,
      tool: { displayName, type: 'http', argSchema, requiresApproval, ...(outputSchema ? { outputSchema } : {}), impl: { method: 'GET', urlTemplate: `${base}${path}`, query: Object.fromEntries(Object.keys((argSchema as { properties: object }).properties).map((name) => [name, `\${${name}}`])) } },
    });
  await http('geocode', 'Geocode', '/geo', object({ city: { type: 'string' } }));
  await http('weather', 'Weather', '/weather', object({ lat: { type: 'number' }, lon: { type: 'number' } }), object({ tempC: { type: 'number' } }));
  await http('convert', 'Convert', '/convert', object({ c: { type: 'number' } }));
  const tool = (slug: string) => ({ bundleID, slug });
  const putRecipe = (slug: string, impl: Record<string, unknown>, argSchema: Record<string, unknown> = object({ city: { type: 'string', description: 'A city' } }), version = 'v1') =>
    core.call('tools.put', { bundleID, toolSlug: slug, version, tool: { displayName: slug, type: 'recipe', argSchema, impl } });
  return { bundleID, tool, putRecipe, http };
}

/** A core whose allowed hosts take the travel APIs, with their bundle of three HTTP tools. */
async function travelCore(options: Parameters<typeof startTestCore>[0] = {}) {
  const api = await travelApis();
  const core = await startTestCore(options);
  await core.call('settings.patch', { allowedHosts: [new URL(api.base).host] });
  return { api, core, ...(await travelBundle(core, api.base)) };
}

const TRIP = (tool: (slug: string) => object) => ({
  steps: [
    { id: 'geo', tool: tool('geocode'), args: { city: '${inputs.city}' } },
    { id: 'weather', tool: tool('weather'), args: { lat: '${steps.geo.result.results[0].lat}', lon: '${steps.geo.result.results[0].lon}' } },
    { id: 'convert', tool: tool('convert'), args: { c: '${steps.weather.result.tempC}' } },
  ],
  output: { city: '${steps.geo.result.results[0].name}', fahrenheit: '${steps.convert.result.f}', line: '${inputs.city}: ${steps.convert.result.f} °F' },
});

describe('recipe tools', () => {
  it('runs three HTTP tools in a row, each taking what it needs from the inputs and earlier results, with values keeping their JSON type', async () => {
    const { api, core, bundleID, tool, putRecipe } = await travelCore();
    await putRecipe('trip-weather', TRIP(tool));
    const result = expectOk(await core.call('tools.invoke', { bundleID, toolSlug: 'trip-weather', version: 'v1', args: { city: 'Oslo' }, trace: true }));
    expect(result.value).toEqual({ city: 'Oslo', fahrenheit: 41, line: 'Oslo: 41 °F' });
    expect(result.steps).toMatchObject([
      { stepId: 'geo', tool: 'Geocode', args: { city: 'Oslo' }, ok: true },
      { stepId: 'weather', tool: 'Weather', args: { lat: 59.91, lon: 10.75 }, ok: true },
      { stepId: 'convert', tool: 'Convert', args: { c: 5 }, ok: true, summary: '{"f":41}' },
    ]);
    expect(result.recipe?.results).toEqual({ geo: { results: [{ name: 'Oslo', lat: 59.91, lon: 10.75 }] }, weather: { tempC: 5 }, convert: { f: 41 } });
    // Asked to, it says how far it has got as it goes: one event a step, named by the step.
    const progress: unknown[] = [];
    const stop = core.core.events.subscribe((event) => event.type === 'tools.progress' && progress.push(event));
    await core.call('tools.invoke', { bundleID, toolSlug: 'trip-weather', version: 'v1', args: { city: 'Oslo' }, progressId: 'run-1' });
    stop();
    expect(progress).toEqual([
      { type: 'tools.progress', progressId: 'run-1', progress: 0, total: 3, message: 'geo' },
      { type: 'tools.progress', progressId: 'run-1', progress: 1, total: 3, message: 'weather' },
      { type: 'tools.progress', progressId: 'run-1', progress: 2, total: 3, message: 'convert' },
      { type: 'tools.progress', progressId: 'run-1', progress: 3, total: 3 },
    ]);
    api.state.seen.length = 3;
    // Each tool ran once, in order; the recipe is a tool like any other (listed, searchable).
    expect(api.state.seen).toEqual(['/geo', '/weather', '/convert']);
    expect((await core.call('tools.search', { q: 'trip weather' })).tools[0]).toMatchObject({ slug: 'trip-weather', type: 'recipe' });
  });

  it('stops at the step that failed, says which and why, and runs again from that step without repeating the ones before', async () => {
    const { api, core, bundleID, tool, putRecipe } = await travelCore();
    await putRecipe('trip-weather', TRIP(tool));
    api.state.failWeather = true;
    const address = { bundleID, toolSlug: 'trip-weather', version: 'v1' };
    const failed = await core.call('tools.invoke', { ...address, args: { city: 'Oslo' }, trace: true });
    expect(failed).toMatchObject({ ok: false, error: { code: 'recipe_step_failed', message: expect.stringMatching(/^Step 2 \(weather\) failed: Weather: http_status: /) as unknown } });
    expect(failed.recipe).toEqual({ results: { geo: { results: [{ name: 'Oslo', lat: 59.91, lon: 10.75 }] } }, failedStep: 'weather' });
    expect(failed.steps?.map((step) => [step.stepId, step.ok])).toEqual([['geo', true], ['weather', false]]);

    api.state.failWeather = false;
    api.state.seen.length = 0;
    const again = expectOk(await core.call('tools.invoke', { ...address, args: { city: 'Oslo' }, trace: true, resume: { from: 'weather', results: failed.recipe!.results } }));
    expect(again.value).toMatchObject({ fahrenheit: 41 });
    expect(api.state.seen).toEqual(['/weather', '/convert']);
    expect(again.steps?.[0]).toMatchObject({ stepId: 'geo', tool: 'Geocode', reused: true, ok: true });
    // Running again from a step the recipe does not have is a clear error.
    expect(await core.call('tools.invoke', { ...address, args: { city: 'Oslo' }, resume: { from: 'nope', results: {} } })).toMatchObject({ ok: false, error: { code: 'recipe_invalid', message: 'trip-weather has no step "nope" to run again from.' } });
  });

  it('skips a step whose condition does not hold, runs a step for each item of a list, and refuses a list longer than its limit', async () => {
    const { core, bundleID, tool, putRecipe } = await travelCore();
    await putRecipe(
      'many',
      {
        steps: [
          { id: 'temps', tool: tool('convert'), forEach: '${inputs.celsius}', args: { c: '${item}' } },
          { id: 'hot', tool: tool('convert'), when: { value: '${inputs.celsius[0]}', is: 'greater', to: 30 }, args: { c: '${inputs.celsius[0]}' } },
        ],
        output: { all: '${steps.temps.result[*].f}', hot: '${steps.hot.result.f}' },
        limits: { forEachMax: 3 },
      },
      object({ celsius: { type: 'array', items: { type: 'number' } } }),
    );
    const address = { bundleID, toolSlug: 'many', version: 'v1' };
    const ran = await core.call('tools.invoke', { ...address, args: { celsius: [0, 100] } });
    // The output names a skipped step's result: the recipe says so instead of guessing.
    expect(ran).toMatchObject({ ok: false, error: { code: 'recipe_missing_value', message: 'The recipe’s output.hot: ${steps.hot.result.f} has no value: step "hot" was skipped (its condition did not hold).' } });
    expect(ran.steps).toMatchObject([{ stepId: 'temps', runs: 2, ok: true }, { stepId: 'hot', skipped: expect.stringContaining('condition did not hold') as unknown }]);
    expect(expectOk(await core.call('tools.invoke', { ...address, args: { celsius: [40, 100] } })).value).toEqual({ all: [104, 212], hot: 104 });
    expect(await core.call('tools.invoke', { ...address, args: { celsius: [1, 2, 3, 4] } })).toMatchObject({
      ok: false,
      error: { code: 'recipe_for_each', message: 'Step 1 (temps) would run for 4 items; a step runs for at most 3 (limits.forEachMax, up to 10,000).' },
    });
  });

  it('a missing field, a fallback and a tool that is gone: each says which step and what to do', async () => {
    const { api, core, bundleID, tool, putRecipe } = await travelCore();
    await putRecipe('trip-weather', TRIP(tool));
    const address = { bundleID, toolSlug: 'trip-weather', version: 'v1' };
    expect(await core.call('tools.invoke', { ...address, args: { city: 'Atlantis' } })).toMatchObject({
      ok: false,
      error: { code: 'recipe_missing_value', message: 'Step 2 (weather), its arguments.lat: ${steps.geo.result.results[0].lat} has no value: step "geo"\'s result has nothing at .results[0].lat.' },
    });
    api.state.failWeather = true;
    const withFallback = TRIP(tool);
    Object.assign(withFallback.steps[1]!, { onFailure: { do: 'fallback', value: { tempC: 20 } } });
    await putRecipe('trip-weather', withFallback, undefined, 'v2');
    const second = { ...address, version: 'v2' };
    expect(expectOk(await core.call('tools.invoke', { ...second, args: { city: 'Oslo' } })).value).toMatchObject({ fahrenheit: 68 });

    await core.call('tools.delete', { bundleID, toolSlug: 'convert', version: 'v1' });
    expect(await core.call('tools.invoke', { ...second, args: { city: 'Oslo' } })).toMatchObject({
      ok: false,
      error: { code: 'recipe_step_tool_missing', message: 'Step 3 (convert) calls convert, which is not there any more. Open the recipe and pick another tool for this step.' },
    });
  });

  it('a step whose tool asks first asks the person with the recipe’s path; a denial stops the recipe at that step', async () => {
    const { api, core, bundleID, tool, putRecipe, http } = await travelCore({ windowOpen: () => true });
    // A newer version of the weather tool asks first: the recipe's step calls the latest.
    await http('weather', 'Weather', '/weather', object({ lat: { type: 'number' }, lon: { type: 'number' } }), undefined, true, 'v2');
    await putRecipe('trip-weather', TRIP(tool));
    const running = core.call('tools.invoke', { bundleID, toolSlug: 'trip-weather', version: 'v1', args: { city: 'Oslo' } });
    const question = await nextQuestion(core.core);
    expect(question).toMatchObject({ from: { kind: 'recipe', path: ['trip-weather'] }, message: 'trip-weather wants to run Weather.', approval: { slug: 'weather', args: { lat: 59.91, lon: 10.75 } } });
    await core.call('questions.answer', { id: question.id, answer: { action: 'decline' } });
    expect(await running).toMatchObject({ ok: false, error: { code: 'recipe_step_failed', message: expect.stringMatching(/^Step 2 \(weather\) failed: Weather: denied: /) as unknown } });
    expect(api.state.seen).toEqual(['/geo']);
  });
});

describe('recipes in recipes', () => {
  it('a recipe may call a recipe; past three levels the call is refused with recipe_depth, and the refusal names the path', async () => {
    const { core, bundleID, tool, putRecipe } = await travelCore();
    const none = object({});
    await putRecipe('d', { steps: [{ id: 'c', tool: tool('convert'), args: { c: 10 } }], output: '${steps.c.result.f}' }, none);
    await putRecipe('c3', { steps: [{ id: 'next', tool: tool('d'), args: {} }], output: '${steps.next.result}' }, none);
    await putRecipe('b2', { steps: [{ id: 'next', tool: tool('c3'), args: {} }], output: '${steps.next.result}' }, none);
    await putRecipe('a1', { steps: [{ id: 'next', tool: tool('b2'), args: {} }], output: '${steps.next.result}' }, none);
    // Three levels (b2 → c3 → d) reach the tool; four (a1 → b2 → c3 → d) do not.
    expect(expectOk(await core.call('tools.invoke', { bundleID, toolSlug: 'b2', version: 'v1', args: {} })).value).toBe(50);
    const deep = await core.call('tools.invoke', { bundleID, toolSlug: 'a1', version: 'v1', args: {} });
    expect(deep).toMatchObject({ ok: false, error: { code: 'recipe_step_failed', message: expect.stringContaining('recipe_depth: recipes, scripts and agents may call tools only 3 deep (a1 → b2 → c3 → d)') as unknown } });
  });
});

describe('saving a recipe', () => {
  it('refuses references to steps that come later or inputs it does not have, and recipes that come back to themselves', async () => {
    const core = await startTestCore();
    const { bundleID, tool, putRecipe } = await travelBundle(core, 'http://127.0.0.1:9');
    const later = await core.failure('tools.put', {
      bundleID,
      toolSlug: 'bad',
      version: 'v1',
      tool: { displayName: 'Bad', type: 'recipe', argSchema: object({ city: { type: 'string' } }), impl: { steps: [{ id: 'a', tool: tool('geocode'), args: { city: '${steps.b.result}' } }, { id: 'b', tool: tool('geocode'), args: { city: '${inputs.town}' } }], output: '${steps.b.result}' } },
    });
    expect(later.code).toBe('invalid_params');
    expect((later.details as { issues: unknown[] }).issues).toEqual([
      { path: '/impl/steps/0/args/city', message: '${steps.b.result}: step "b" runs later; a step can use only the results of steps before it.' },
      { path: '/impl/steps/1/args/city', message: '${inputs.town}: the recipe has no input "town". Add it to the inputs, or pick another value.' },
    ]);
    // A step calling a tool that is not there yet is saved (it may be imported later); the run says so.
    await putRecipe('outer', { steps: [{ id: 'inner', tool: tool('inner'), args: {} }], output: '${steps.inner.result}' });
    const cycle = await core.failure('tools.put', {
      bundleID,
      toolSlug: 'inner',
      version: 'v1',
      tool: { displayName: 'Inner', type: 'recipe', argSchema: object({}), impl: { steps: [{ id: 'outer', tool: tool('outer'), args: {} }], output: '${steps.outer.result}' } },
    });
    expect(cycle).toMatchObject({ code: 'recipe_cycle', message: 'The recipe calls itself: Inner → outer → Inner. A recipe cannot come back to itself through its steps; remove one of these calls.' });
    expect((await core.call('tools.validate', { bundleID, toolSlug: 'inner', tool: { displayName: 'Inner', type: 'recipe', argSchema: object({}), impl: { steps: [{ id: 'outer', tool: tool('outer'), args: {} }], output: null } } })).issues).toEqual([
      { path: '/impl/steps/0/tool', message: 'reaches a recipe that calls itself (Inner → outer → Inner)' },
    ]);
  });

  it('a recipe file edited by hand into nonsense is listed as invalid with its reason, and the other tools still run', async () => {
    const { core, bundleID, tool, putRecipe } = await travelCore();
    await putRecipe('trip-weather', TRIP(tool));
    const nonsense = await putRecipe('nonsense', TRIP(tool));
    const file = path.join(core.dataDir, 'bundles', bundleID, 'tools', `${nonsense.toolID}.json`);
    const written = JSON.parse(await readFile(file, 'utf8')) as { impl: { steps: unknown } };
    written.impl.steps = 'all of them, please';
    await writeFile(file, JSON.stringify(written));
    await core.core.store.refreshBundle(bundleID);
    const listed = (await core.call('tools.list', { bundleIDs: [bundleID], includeDisabled: true })).tools.find((entry) => entry.toolID === nonsense.toolID);
    expect(listed).toMatchObject({ status: 'invalid', invalidReason: expect.stringContaining('/impl/steps') as unknown });
    expect(await core.call('tools.invoke', { bundleID, toolSlug: 'nonsense', version: 'v1', args: { city: 'Oslo' } }).catch((error: unknown) => error)).toMatchObject({ code: 'tool_unavailable' });
    expect(expectOk(await core.call('tools.invoke', { bundleID, toolSlug: 'trip-weather', version: 'v1', args: { city: 'Oslo' } })).value).toMatchObject({ fahrenheit: 41 });
  });
});

describe('a recipe goes where any tool goes', () => {
  it('is run from the palette into a chat, and called by an MCP client of Toolbelt’s own server, like any tool', async () => {
    const { core, bundleID, tool, putRecipe } = await travelCore();
    await putRecipe('trip-weather', TRIP(tool));

    // The palette: the run and its result are kept in the chat.
    await core.call('providers.put', { id: 'script', kind: 'scripted', displayName: 'Script', script: [] });
    const chat = await core.call('chats.create', { providerId: 'script', model: 'scripted', title: 'Trips' });
    const { messageId } = await core.call('chats.runTool', { chatId: chat.id, bundleID, slug: 'trip-weather', version: 'v1', args: { city: 'Oslo' } });
    const ran = await waitFor(
      () => core.call('chats.get', { chatId: chat.id }),
      (read) => read.messages.some((message) => message.id === messageId && message.role === 'tool-run' && message.call.status === 'succeeded'),
    );
    expect(ran.messages.find((message) => message.id === messageId)).toMatchObject({ call: { result: { ok: true, value: { fahrenheit: 41 } } } });

    // Toolbelt's MCP server: listed with its inputs as the schema, and called.
    await core.call('mcpShare.shareBundle', { bundleID, shared: true });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const client = new Client({ name: 'Test client', version: '1.0.0' });
    core.core.mcpShare.serve(serverSide);
    await client.connect(clientSide);
    onTestFinished(() => client.close());
    const listed = (await client.listTools()).tools.find((entry) => entry.name === 'trip-weather');
    expect(listed?.inputSchema).toMatchObject({ properties: { city: { type: 'string' } }, required: ['city'] });
    const called = await client.callTool({ name: 'trip-weather', arguments: { city: 'Oslo' } });
    expect(called.isError).toBeFalsy();
    expect(JSON.stringify(called.structuredContent ?? called.content)).toContain('41');
  });

  it('is exported in its bundle’s .zip and imported elsewhere as a new bundle, where its steps call the new bundle’s tools', async () => {
    const api = await travelApis();
    const source = await startTestCore();
    const { bundleID, tool, putRecipe } = await travelBundle(source, api.base);
    await putRecipe('trip-weather', TRIP(tool));
    const archive = await source.call('bundles.export', { bundleID });

    const target = await startTestCore();
    await target.call('settings.patch', { allowedHosts: [new URL(api.base).host] });
    const importedID = uuidv7();
    await target.call('bundles.importArchive', { base64: archive.base64, bundleID: importedID, apply: true });
    const imported = await target.call('tools.get', { bundleID: importedID, toolSlug: 'trip-weather', version: 'v1' });
    expect(imported.status === 'valid' && imported.type === 'recipe' && imported.impl.steps.map((step) => step.tool.bundleID)).toEqual([importedID, importedID, importedID]);
    expect(expectOk(await target.call('tools.invoke', { bundleID: importedID, toolSlug: 'trip-weather', version: 'v1', args: { city: 'Oslo' } })).value).toMatchObject({ fahrenheit: 41 });
  });
});
