import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { mcpRecords } from './records.js';

const AT = '2026-11-25T12:00:00.000Z';
const tool = (name: string, annotations?: Tool['annotations']): Tool => ({ name, inputSchema: { type: 'object' }, ...(annotations ? { annotations } : {}) });
const TOOLS = [tool('unsaid'), tool('reads', { readOnlyHint: true }), tool('harmless-write', { readOnlyHint: false, destructiveHint: false }), tool('deletes', { destructiveHint: true })];

function asking(askFirst?: 'as-annotated' | 'always' | 'never') {
  return mcpRecords('files', TOOLS, AT, askFirst).tools.flatMap((record) => (record.kind === 'valid' && record.tool.requiresApproval ? [record.tool.slug] : []));
}

describe('which tools of an MCP server ask before they run', () => {
  it('follows the spec’s defaults: a tool that does not say it only reads, or that it destroys nothing, asks first', () => {
    expect(asking()).toEqual(['unsaid', 'deletes']);
  });

  it('lets the person trust the server (never) or ask for every tool (always)', () => {
    expect(asking('never')).toEqual([]);
    expect(asking('always')).toEqual(['unsaid', 'reads', 'harmless-write', 'deletes']);
  });
});
