import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { McpActivity } from '../../shared/schemas/mcp-share.js';
import { silentLogger } from '../log.js';
import { createLayout } from '../store/layout.js';
import { newID } from '../../testing/data/fixtures.js';
import { tempDirForTest } from '../../testing/harness/test-temp-dir.js';
import { ACTIVITY_KEPT, ActivityLog } from './activity.js';

const entry = (index: number): McpActivity => ({
  id: newID(),
  at: new Date().toISOString(),
  client: 'Cursor',
  tool: `tool-${index}`,
  args: '{}',
  ok: true,
  result: 'done',
  durationMs: 1,
  approval: 'not-needed',
});

describe('the MCP activity log', () => {
  it('keeps every call recorded while an earlier batch is being written', async () => {
    const dataDir = await tempDirForTest();
    const log = new ActivityLog(createLayout(dataDir), silentLogger, () => {});
    // Calls arrive one after another, about a millisecond apart, across several batch writes.
    const added: McpActivity[] = [];
    // What a window reads meanwhile has each call once, newest first.
    const reads: string[][] = [];
    for (let index = 0; index < 300; index++) {
      const call = entry(index);
      added.push(call);
      log.add(call);
      if (index % 10 === 0) reads.push((await log.recent(500)).map((read) => read.id));
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    for (const read of reads) expect(read).toEqual(added.slice(0, read.length).map((call) => call.id).reverse());
    await log.flush();
    const ids = added.map((call) => call.id).reverse();
    expect((await log.recent(500)).map((call) => call.id)).toEqual(ids);
    const written = JSON.parse(await readFile(path.join(dataDir, 'mcp-activity.json'), 'utf8')) as { calls: McpActivity[] };
    expect(written.calls.map((call) => call.id).reverse()).toEqual(ids);
  });

  it('shows calls the other process serving the folder wrote, and a file changed by hand, as they are now', async () => {
    const dataDir = await tempDirForTest();
    const app = new ActivityLog(createLayout(dataDir), silentLogger, () => {});
    const stdioCommand = new ActivityLog(createLayout(dataDir), silentLogger, () => {});
    const calls = [0, 1, 2, 3, 4].map(entry);
    const ids = (list: McpActivity[]) => list.map((call) => call.id);
    for (const call of calls.slice(0, 3)) app.add(call);
    await app.flush();
    expect(ids(await app.recent(10))).toEqual(ids(calls.slice(0, 3)).reverse());
    stdioCommand.add(calls[3]!);
    await stdioCommand.flush();
    // The app read the file before; it reads it again now that the other process wrote, and keeps that call when it writes.
    expect(ids(await app.recent(10))).toEqual(ids(calls.slice(0, 4)).reverse());
    app.add(calls[4]!);
    await app.flush();
    expect(ids(await stdioCommand.recent(10))).toEqual(ids(calls).reverse());

    // Edited in place (same file, other content): a call broken by hand is left out, the rest read as they are now.
    const file = path.join(dataDir, 'mcp-activity.json');
    await writeFile(file, JSON.stringify({ calls: [calls[0], { ...calls[1], ok: 'maybe' }] }));
    expect(ids(await app.recent(10))).toEqual([calls[0]!.id]);
  });

  it('keeps showing the last 500 calls, and no more, while its file cannot be written', async () => {
    const dataDir = await tempDirForTest();
    // A folder where the file goes: every write fails, and says so in the log.
    await mkdir(path.join(dataDir, 'mcp-activity.json'));
    const warnings: string[] = [];
    const log = new ActivityLog(createLayout(dataDir), { ...silentLogger, warn: (message) => warnings.push(message) }, () => {});
    const calls = Array.from({ length: 620 }, (_, index) => entry(index));
    for (const [index, call] of calls.entries()) {
      log.add(call);
      if (index % 200 === 0) await log.flush();
    }
    await log.flush();
    expect(warnings).toContain('MCP activity could not be saved');
    const shown = await log.recent(1_000);
    expect(shown).toHaveLength(ACTIVITY_KEPT);
    expect(shown[0]!.id).toBe(calls.at(-1)!.id);
    expect(shown.at(-1)!.id).toBe(calls.at(-ACTIVITY_KEPT)!.id);
  });
});
