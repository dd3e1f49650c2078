import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { McpActivity } from '../../shared/schemas/mcp-share.js';
import { silentLogger } from '../log.js';
import { createLayout } from '../store/layout.js';
import { newID } from '../testing/fixtures.js';
import { tempDirForTest } from '../testing/test-temp-dir.js';
import { ActivityLog } from './activity.js';

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
});
