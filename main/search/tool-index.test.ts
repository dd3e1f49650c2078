import { describe, expect, it } from 'vitest';
import { ToolTextIndex, type IndexedTool } from './tool-index.js';

function tool(toolID: string, fields: Partial<IndexedTool> = {}): IndexedTool {
  return { toolID, name: toolID, displayName: '', description: '', args: '', tags: '', bundle: '', ...fields };
}

const ids = (hits: { toolID: string }[]) => hits.map((hit) => hit.toolID);

describe('the full-text index of tools', () => {
  it('finds a tool by a rare word among hundreds that share the common one, in both passes alike', () => {
    const twoPass = new ToolTextIndex();
    const onePass = new ToolTextIndex(1);
    const catalogue = [
      ...Array.from({ length: 300 }, (_, n) => tool(`list-thing-${n}`, { description: `List the things of kind ${n}` })),
      tool('list-invoices', { description: 'List the invoices of a customer' }),
      tool('void-invoice', { description: 'Void one invoice' }),
    ];
    for (const entry of catalogue) {
      twoPass.put(entry);
      onePass.put(entry);
    }
    const everything = new Set(catalogue.map((entry) => entry.toolID));
    expect(ids(twoPass.search('show me the list of invoices', everything, 3))[0]).toBe('list-invoices');
    expect(ids(twoPass.search('show me the list of invoices', everything, 3))).toEqual(ids(onePass.search('show me the list of invoices', everything, 3)));
    // Only common words: still answered, from every tool that has them.
    expect(twoPass.search('list things', everything, 5)).toHaveLength(5);
  });

  it('answers only from the tools it is asked about', () => {
    const index = new ToolTextIndex();
    index.put(tool('weather-now', { description: 'Current weather in a city' }));
    index.put(tool('weather-forecast', { description: 'Weather forecast for a city' }));
    expect(ids(index.search('weather in Paris', new Set(['weather-forecast']), 5))).toEqual(['weather-forecast']);
    expect(index.search('weather in Paris', new Set(), 5)).toEqual([]);
  });

  it('follows a tool that is changed or removed', () => {
    const index = new ToolTextIndex();
    const among = new Set(['a']);
    index.put(tool('a', { description: 'Weather for a city' }));
    index.put(tool('a', { description: 'Exchange rates of currencies' }));
    expect(index.search('weather', among, 5)).toEqual([]);
    expect(ids(index.search('currency exchange', among, 5))).toEqual(['a']);
    index.remove('a');
    expect(index.size).toBe(0);
    expect(index.search('exchange', among, 5)).toEqual([]);
  });

  it('reads camelCase names by their parts and a brand typed whole as itself', () => {
    const index = new ToolTextIndex();
    index.put(tool('list-repos', { description: 'Lists repositories on GitHub', args: 'perPage How many to a page' }));
    index.put(tool('hub-spot', { description: 'A hub of git notes' }));
    const among = new Set(['list-repos', 'hub-spot']);
    expect(ids(index.search('GitHub', among, 5))).toEqual(['list-repos']);
    expect(ids(index.search('per page', among, 5))).toEqual(['list-repos']);
  });

  it('treats regex syntax and control characters as text, and an empty request as no request', () => {
    const index = new ToolTextIndex();
    index.put(tool('search-code', { description: 'Search code for a pattern' }));
    const among = new Set(['search-code']);
    expect(ids(index.search('(a+)+$ \u0000\u0007 search [code]', among, 5))).toEqual(['search-code']);
    expect(index.search('   ', among, 5)).toEqual([]);
    expect(index.search('the of a', among, 5)).toEqual([]);
  });
});
