import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { newID } from '../../testing/data/fixtures.js';
import { manualClock, startTestCore } from '../../testing/harness/test-core.js';
import { timedApi } from '../../testing/harness/timed-api.js';
import { addCall, figuresOf, readHours, type CallHour } from './call-metrics.js';

const DAY_MS = 24 * 3_600_000;

describe("a tool's calls over the last day and week", () => {
  it('counts every call and failure, with median and 95th-percentile times, forgets what is older, and keeps them over a restart', async () => {
    const clock = manualClock();
    const subject = await startTestCore({ clock });
    const bundleID = newID();
    const { work } = await timedApi(subject, clock, bundleID);
    const metrics = () => subject.call('tools.metrics', { bundleID, toolSlug: 'work', version: 'v1' });

    expect(await metrics()).toEqual({ day: { calls: 0, failures: 0 }, week: { calls: 0, failures: 0 } });
    for (let call = 0; call < 17; call++) await work(40);
    for (let call = 0; call < 2; call++) await work(900);
    expect((await work(40, 'yes')).ok).toBe(false);
    const { day } = await metrics();
    expect(day).toMatchObject({ calls: 20, failures: 1 });
    // Read from buckets 1.2× wide: within a tenth of the true time.
    expect(Math.abs(day.p50Ms! - 40) / 40).toBeLessThan(0.1);
    expect(Math.abs(day.p95Ms! - 900) / 900).toBeLessThan(0.1);

    clock.advance(2 * DAY_MS);
    await work(5);
    expect(await metrics()).toMatchObject({ day: { calls: 1, failures: 0 }, week: { calls: 21, failures: 1 } });

    // Kept in the data folder: the same figures after a restart.
    const reopened = await subject.reopen();
    expect(await reopened.call('tools.metrics', { bundleID, toolSlug: 'work', version: 'v1' })).toMatchObject({ week: { calls: 21, failures: 1 } });
    clock.advance(6 * DAY_MS);
    expect(await reopened.call('tools.metrics', { bundleID, toolSlug: 'work', version: 'v1' })).toMatchObject({ day: { calls: 0 }, week: { calls: 1 } });
  });

  it('keeps a week of hours at most, and takes from a damaged file only what it wrote', async () => {
    let hours: CallHour[] = [];
    const start = Date.parse('2026-03-01T00:00:00Z');
    // A call every hour for a month: a week of hours is kept.
    for (let hour = 0; hour < 30 * 24; hour++) hours = addCall(hours, new Date(start + hour * 3_600_000), hour % 10 !== 0, 12);
    expect(hours).toHaveLength(7 * 24);
    expect(figuresOf(hours, new Date(start + 30 * 24 * 3_600_000 - 1), 24)).toMatchObject({ calls: 24 });
    // A clock set back counts into its own hour, keeping the later ones.
    hours = addCall(hours, new Date(start + (30 * 24 - 5) * 3_600_000), true, 12);
    expect(hours).toHaveLength(7 * 24);

    expect(readHours([{ h: 1, n: 1, f: 0, t: { '3': 1 } }, { h: 'x' }, { h: 2, n: -1, f: 0, t: {} }, { h: 3, n: 1, f: 0, t: { '9999': 1 } }, null, 7])).toEqual([{ h: 1, n: 1, f: 0, t: { '3': 1 } }]);
    expect(readHours('not hours')).toEqual([]);
  });

  it('a usage file with hours nobody could have written is read for what it can, and the tool is counted again', async () => {
    const subject = await startTestCore();
    const bundleID = newID();
    await subject.call('bundles.put', { bundleID, slug: 'calc', displayName: 'Calc' });
    const { toolID } = await subject.call('tools.put', { bundleID, toolSlug: 'add', version: 'v1', tool: { displayName: 'Add', type: 'script', argSchema: { type: 'object', properties: { a: { type: 'number' } } }, impl: { language: 'javascript', source: 'export default function (a) { return a + 1 }' } } });
    const reopened = await subject.reopen(async () => {
      const file = path.join(subject.dataDir, 'usage', `${toolID}.json`);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, JSON.stringify({ callCount: 3, hours: [{ h: 1e300, n: 'many', t: [] }] }));
    });
    expect(await reopened.call('tools.metrics', { bundleID, toolSlug: 'add', version: 'v1' })).toEqual({ day: { calls: 0, failures: 0 }, week: { calls: 0, failures: 0 } });
    await reopened.call('tools.invoke', { bundleID, toolSlug: 'add', version: 'v1', args: { a: 1 } });
    expect(await reopened.call('tools.metrics', { bundleID, toolSlug: 'add', version: 'v1' })).toMatchObject({ day: { calls: 1 } });
    await reopened.core.close();
    expect(JSON.parse(await readFile(path.join(subject.dataDir, 'usage', `${toolID}.json`), 'utf8'))).toMatchObject({ callCount: 4, hours: [{ n: 1 }] });
  });
});
