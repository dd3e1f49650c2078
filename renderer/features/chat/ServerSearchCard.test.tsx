// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ServerSearchCards } from './ServerSearchCard.js';
// Texts come from the catalogue, in English, as in the app.
import '../../i18n/index.js';

afterEach(cleanup);

describe('a search the provider ran itself', () => {
  it('shows what was asked and which tools it loaded, from the blocks as Anthropic sent them', () => {
    render(
      <ServerSearchCards
        blocks={[
          { type: 'server_tool_use', id: 'srvtoolu_1', name: 'tool_search_tool_bm25', input: { query: 'weather city' } },
          { type: 'tool_search_tool_result', tool_use_id: 'srvtoolu_1', content: { type: 'tool_search_tool_search_result', tool_references: [{ type: 'tool_reference', tool_name: 'weather' }, { type: 'tool_reference', tool_name: 'forecast' }] } },
        ]}
      />,
    );
    const card = screen.getByRole('article', { name: 'Tool search by the provider' });
    expect(card).toHaveTextContent('Searched forweather city');
    expect(card).toHaveTextContent('Loadedweather forecast');
  });

  it('says a search that found nothing, and shows nothing without blocks', () => {
    const { container } = render(<ServerSearchCards blocks={undefined} />);
    expect(container).toBeEmptyDOMElement();
    render(<ServerSearchCards blocks={[{ type: 'server_tool_use', id: 's', input: { query: 'zzz' } }, { type: 'tool_search_tool_result', tool_use_id: 's', content: { tool_references: [] } }]} />);
    expect(screen.getByRole('article')).toHaveTextContent('Loadednothing');
  });
});
