import { describe, expect, it } from 'vitest';
import { AUTO_SEARCH_TOOLS } from '../../shared/tools/discovery-limits.js';
import type { ToolDefinition } from '../providers/model.js';
import { chooseDiscovery } from './discovery.js';

const tools = (count: number): ToolDefinition[] =>
  Array.from({ length: count }, (_, index) => ({ name: `tool_${index}`, description: 'Does one thing.', parameters: { type: 'object', properties: {} } }));

describe('how a chat offers its tools, and why (a code the window says in its language, and English for the API)', () => {
  it('says why for each mode', () => {
    expect(chooseDiscovery('all', tools(40), null)).toMatchObject({ mode: 'all', why: 'asked_all' });
    expect(chooseDiscovery('auto', tools(3), null)).toMatchObject({ mode: 'all', why: 'few_tools' });
    expect(chooseDiscovery('auto', tools(AUTO_SEARCH_TOOLS + 1), null)).toMatchObject({ mode: 'search', why: 'many_tools' });
    expect(chooseDiscovery('search', tools(3), null)).toMatchObject({ mode: 'search', why: 'asked_search' });
    expect(chooseDiscovery('search', tools(3), { why: 'search_cannot_run', text: 'tool search is not available: it is switched off' })).toMatchObject({
      mode: 'all',
      why: 'search_cannot_run',
      reason: 'Every tool is offered because tool search is not available: it is switched off.',
    });
  });

  it('says one tool in the singular', () => {
    expect(chooseDiscovery('auto', tools(1), null).reason).toBe('The one tool is offered: search starts past 30 tools or 12,800 tokens of definitions.');
    expect(chooseDiscovery('auto', tools(2), null).reason).toBe('All 2 tools are offered: search starts past 30 tools or 12,800 tokens of definitions.');
  });
});
