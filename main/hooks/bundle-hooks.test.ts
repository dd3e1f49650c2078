import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../testing/cores/spawned-host.js';
import { expectError, expectOk } from '../../testing/harness/invoke-harness.js';
import { sharingCore } from '../../testing/harness/mcp-share-harness.js';
import { newID } from '../../testing/data/fixtures.js';

const guard = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(PROJECT_ROOT, 'testing/hooks', 'city-guard.mjs'))}`;
const GUARD_HOOKS = { PreToolUse: [{ matcher: 'forecast', hooks: [{ type: 'command' as const, command: guard }] }] };

async function bundleWithHooks() {
  const shared = await sharingCore();
  const { subject, bundleID, weather } = shared;
  const put = (hooks: unknown) => subject.call('bundles.put', { bundleID, slug: 'weather', displayName: 'Weather', hooks } as never);
  const view = async (id = bundleID) => (await subject.call('bundles.list', { bundleIDs: [id] })).bundles[0] as { hooksOn?: boolean; hooksDigest?: string; hooks?: unknown };
  const forecast = (city: string, id = bundleID) => subject.call('tools.invoke', { bundleID: id, toolSlug: 'forecast', version: 'v1', args: { city } });
  const reachedApi = (city: string) => weather.seen.some((request) => request.url.includes(`city=${city}`));
  return { ...shared, put, view, forecast, reachedApi };
}

describe("a bundle's own hooks", () => {
  it('are saved off, run for its tools once the person switches on exactly those, and are off again when they change', async () => {
    const { subject, bundleID, put, view, forecast, reachedApi } = await bundleWithHooks();
    await put(GUARD_HOOKS);
    const saved = await view();
    expect(saved).toMatchObject({ hooks: GUARD_HOOKS, hooksOn: false, hooksDigest: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown });
    // Off: the call goes on as if there were none.
    expectOk(await forecast('Atlantis'));
    expect(reachedApi('Atlantis')).toBe(true);

    // Switched on with a digest of other hooks (what the person saw is not what is there): refused, still off.
    expect(await subject.call('bundles.patch', { bundleID, hooksOn: '0'.repeat(64) }).catch((error: { code?: string }) => error.code)).toBe('conflict');
    const on = await subject.call('bundles.patch', { bundleID, hooksOn: saved.hooksDigest! });
    expect(on).toMatchObject({ hooksOn: true });
    expect(expectError(await forecast('Atlantis'), 'hook_denied').message).toBe('Atlantis is not a city you can ask the weather of.');

    // Another bundle's tool of the same name is not this bundle's to guard.
    const other = newID();
    await subject.call('bundles.put', { bundleID: other, slug: 'weather-two', displayName: 'Weather two' });
    const tool = (await subject.call('tools.get', { bundleID, toolSlug: 'forecast', version: 'v1' })) as unknown as Record<string, unknown>;
    await subject.call('tools.put', { bundleID: other, toolSlug: 'forecast', version: 'v1', tool: { displayName: tool.displayName, type: 'http', argSchema: tool.argSchema, impl: tool.impl } as never });
    expect(expectOk(await forecast('Atlantis', other)).hooks).toBeUndefined();

    // The same hooks saved again stay on; changed ones are off until switched on again.
    await put(GUARD_HOOKS);
    expect(await view()).toMatchObject({ hooksOn: true });
    await put({ PreToolUse: [{ matcher: 'forecast|clear-alerts', hooks: GUARD_HOOKS.PreToolUse[0]!.hooks }] });
    expect(await view()).toMatchObject({ hooksOn: false });
    expectOk(await forecast('Atlantis'));
    // Switched off: the digest is forgotten.
    await put(GUARD_HOOKS);
    await subject.call('bundles.patch', { bundleID, hooksOn: false });
    expect(await view()).toMatchObject({ hooksOn: false });
  });

  it('travel in its ZIP, shown in full before import, and arrive off', async () => {
    const { subject, bundleID, put, view, forecast } = await bundleWithHooks();
    await put(GUARD_HOOKS);
    await subject.call('bundles.patch', { bundleID, hooksOn: (await view()).hooksDigest! });
    const { base64 } = await subject.call('bundles.export', { bundleID });
    expect(Buffer.from(base64, 'base64').includes('hooksSwitchedOn')).toBe(false);

    const copy = newID();
    const preview = await subject.call('bundles.importArchive', { base64, bundleID: copy });
    expect(preview.hooks).toEqual([{ event: 'PreToolUse', matcher: 'forecast', type: 'command', runs: guard }]);
    await subject.call('bundles.importArchive', { base64, bundleID: copy, apply: true });
    expect(await view(copy)).toMatchObject({ hooks: GUARD_HOOKS, hooksOn: false });
    expectOk(await forecast('Atlantis', copy));
    await subject.call('bundles.patch', { bundleID: copy, hooksOn: (await view(copy)).hooksDigest! });
    expectError(await forecast('Atlantis', copy), 'hook_denied');
  });

  it('name tool events only, with matchers the linear engine runs; the person’s own hooks run first', async () => {
    const { subject, bundleID, put, view, forecast } = await bundleWithHooks();
    const refused = async (hooks: unknown) => put(hooks).then(() => 'saved', (error: { code?: string; message?: string }) => `${error.code}: ${error.message}`);
    expect(await refused({ Stop: [{ hooks: [{ type: 'command', command: 'true' }] }] })).toMatch(/^invalid_params: /);
    expect(await refused({ PreToolUse: [{ matcher: '(a+)+(', hooks: [{ type: 'command', command: 'true' }] }] })).toMatch(/^invalid_params: hooks\.PreToolUse\[0\]\.matcher/);
    expect(await view()).not.toHaveProperty('hooks');

    await subject.call('settings.patch', { hooks: { PreToolUse: [{ matcher: 'forecast', hooks: [{ type: 'command', command: `${JSON.stringify(process.execPath)} -e ""` }] }] } } as never);
    await put(GUARD_HOOKS);
    await subject.call('bundles.patch', { bundleID, hooksOn: (await view()).hooksDigest! });
    const result = await forecast('Old Town');
    expect(expectOk(result).hooks?.map((run) => [run.handler.includes('city-guard') ? 'bundle' : 'person', run.decision])).toEqual([
      ['person', 'continue'],
      ['bundle', 'allow'],
    ]);
  });
});

describe('hooks.try: a hook run on a sample call, the tool never run', () => {
  it("tries a draft before it is saved, or the saved hooks (the bundle's once on), and says what the call would have become", async () => {
    const { subject, bundleID, put, view, weather } = await bundleWithHooks();
    const sample = (event: 'PreToolUse' | 'PostToolUse' | 'PostToolUseFailure', args: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      subject.call('hooks.try', { event, bundleID, toolSlug: 'forecast', version: 'v1', args, ...extra });
    const before = weather.seen.length;

    // A draft, not saved: tried as it is.
    expect(await sample('PreToolUse', { city: 'Atlantis' }, { hooks: GUARD_HOOKS })).toMatchObject({
      outcome: 'refused',
      code: 'hook_denied',
      message: 'Atlantis is not a city you can ask the weather of.',
      runs: [{ event: 'PreToolUse', decision: 'deny' }],
    });
    expect(await sample('PreToolUse', { city: 'Old Town' }, { hooks: GUARD_HOOKS })).toMatchObject({ outcome: 'allowed', updatedInput: { city: 'Tallinn' }, context: ['The person calls Tallinn "Old Town".'] });
    // Nothing saved: nothing runs.
    expect(await sample('PreToolUse', { city: 'Atlantis' })).toEqual({ runs: [], outcome: 'goes-on', context: [] });
    // The bundle's hooks, saved and switched on, are what runs without a draft.
    await put(GUARD_HOOKS);
    await subject.call('bundles.patch', { bundleID, hooksOn: (await view()).hooksDigest! });
    expect(await sample('PreToolUse', { city: 'Atlantis' })).toMatchObject({ outcome: 'refused' });

    // After a call: the hook is told the answer given here.
    const log = { PostToolUse: [{ hooks: [{ type: 'command', command: `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(PROJECT_ROOT, 'testing/hooks', 'call-log.mjs'))}` }] }] };
    expect(await sample('PostToolUse', { city: 'Rome' }, { hooks: log, response: { sky: 'sample' } })).toMatchObject({ outcome: 'goes-on', runs: [{ event: 'PostToolUse', decision: 'continue' }] });
    const logged = JSON.parse((await readFile(path.join(subject.dataDir, 'hooks.log'), 'utf8')).trim()) as Record<string, unknown>;
    expect(logged).toMatchObject({ event: 'PostToolUse', tool: 'forecast', response: { sky: 'sample' } });
    // The tool itself never ran.
    expect(weather.seen.length).toBe(before);
  });
});
