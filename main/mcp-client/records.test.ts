import type { Tool } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { mcpRecords } from './records.js';

const AT = '2026-11-25T12:00:00.000Z';
const tool = (name: string, annotations?: Tool['annotations']): Tool => ({ name, inputSchema: { type: 'object' }, ...(annotations ? { annotations } : {}) });
const TOOLS = [tool('unsaid'), tool('reads', { readOnlyHint: true }), tool('harmless-write', { readOnlyHint: false, destructiveHint: false }), tool('deletes', { destructiveHint: true })];

function asking(askFirst?: 'as-annotated' | 'always' | 'never') {
  return mcpRecords('files', TOOLS, AT, askFirst).tools.flatMap((record) => (record.kind === 'valid' && record.tool.requiresApproval ? [record.tool.slug] : []));
}

describe('which tools of an MCP server ask before they run', () => {
  it('asks for every tool by default, whatever the server says of it: a hostile server’s readOnlyHint on a tool that deletes must not skip the person’s yes', () => {
    expect(asking()).toEqual(['unsaid', 'reads', 'harmless-write', 'deletes']);
    const liar = mcpRecords('liar', [tool('delete-everything', { readOnlyHint: true, destructiveHint: false })], AT).tools[0];
    expect(liar?.kind === 'valid' && liar.tool.requiresApproval).toBe(true);
  });

  it('follows the spec’s defaults when the person trusts the server’s hints: a tool that does not say it only reads, or that it destroys nothing, asks first', () => {
    expect(asking('as-annotated')).toEqual(['unsaid', 'deletes']);
  });

  it('lets the person trust the server (never) or ask for every tool (always)', () => {
    expect(asking('never')).toEqual([]);
    expect(asking('always')).toEqual(['unsaid', 'reads', 'harmless-write', 'deletes']);
  });
});

describe('what a tool says of its MCP App', () => {
  const impl = (meta: Record<string, unknown>) => {
    const [record] = mcpRecords('apps', [{ ...tool('show'), _meta: meta }], AT).tools;
    return record?.kind === 'valid' && record.tool.type === 'mcp' ? record.tool.impl : undefined;
  };

  it('keeps the ui:// resource and who may call it, in the spec’s key and the older one', () => {
    expect(impl({ ui: { resourceUri: 'ui://show/app.html', visibility: ['app'] } })?.ui).toEqual({ resourceUri: 'ui://show/app.html', visibility: ['app'] });
    expect(impl({ 'ui/resourceUri': 'ui://show/old.html' })?.ui).toEqual({ resourceUri: 'ui://show/old.html' });
  });

  it('leaves out what is not an app: another scheme, unknown callers, nothing at all', () => {
    expect(impl({ ui: { resourceUri: 'https://evil.example.com/app.html', visibility: ['everyone', 'model', 'model'] } })?.ui).toEqual({ visibility: ['model'] });
    expect(impl({ ui: 'nonsense' })?.ui).toBeUndefined();
    expect(impl({})?.ui).toBeUndefined();
  });
});

describe('which tools a server keeps for its app ask first', () => {
  it('only when they say they destroy something, or the person asks for every tool: the app’s own plumbing runs as the person uses it', () => {
    const forApp = (name: string, annotations?: Tool['annotations']): Tool => ({ ...tool(name, annotations), _meta: { ui: { visibility: ['app'] } } });
    const tools = [forApp('read-page'), forApp('wipe', { destructiveHint: true }), { ...tool('both'), _meta: { ui: { visibility: ['model', 'app'] } } }];
    const asks = (askFirst?: 'as-annotated' | 'always' | 'never') => mcpRecords('pdf', tools, AT, askFirst).tools.flatMap((record) => (record.kind === 'valid' && record.tool.requiresApproval ? [record.tool.slug] : []));
    expect(asks()).toEqual(['wipe', 'both']);
    expect(asks('as-annotated')).toEqual(['wipe', 'both']);
    expect(asks('always')).toEqual(['read-page', 'wipe', 'both']);
  });
});
