// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newID } from '../../../../testing/data/fixtures.js';
import { startTestCore } from '../../../../testing/harness/test-core.js';
import { renderWithCore } from '../../../testing/with-core.js';
import { ToolEditor } from './ToolEditor.js';

// Monaco needs a browser's workers; without it the JSON editors are the plain text boxes the app itself shows
// when Monaco cannot load, which is what these tests type into.
vi.mock('../../../components/monaco/load-monaco.js', () => ({ loadMonaco: () => Promise.reject(new Error('Monaco is not loaded in component tests')) }));

afterEach(cleanup);

describe('the tool editor, as a person writes a new HTTP tool', () => {
  it('follows the name with the slug, checks the schema with the store’s rules as one types, previews the form, and saves to the core', async () => {
    const core = await startTestCore();
    const bundleID = newID();
    await core.call('bundles.put', { bundleID, slug: 'mine', displayName: 'Mine' });
    const saved = vi.fn();
    const { user } = await renderWithCore(<ToolEditor bundleID={bundleID} base={null} onClose={() => {}} onSaved={saved} />, core);
    const editor = screen.getByRole('region', { name: 'Tool editor' });

    await user.type(within(editor).getByLabelText('Display name'), 'Echo back');
    expect(within(editor).getByLabelText('Slug')).toHaveValue('echo-back');
    const url = within(editor).getByLabelText('URL template');
    // Cleared on the way, the draft has no URL for a moment: the tester beside it (Copy as cURL) must take that.
    await user.clear(url);
    await user.type(url, 'https://example.com/echo/${{word}');

    // A typo in the schema is caught with its path by the core; fixing it clears the problem.
    const argSchema = await within(editor).findByRole('textbox', { name: 'argSchema' });
    await user.clear(argSchema);
    await user.type(argSchema, '{{"type": "object", "properties": {{"word": {{"type": "strin", "title": "Word"}}, "required": [["word"]}');
    expect((await within(editor).findAllByText(/properties\/word\/type/)).length).toBeGreaterThan(0);
    await user.clear(argSchema);
    await user.type(argSchema, '{{"type": "object", "properties": {{"word": {{"type": "string", "title": "Word"}}, "required": [["word"]}');
    expect(await within(editor).findByText('No problems found.')).toBeInTheDocument();
    expect(within(screen.getByRole('form', { name: 'Preview of Echo back' })).getByRole('textbox', { name: 'Word' })).toBeInTheDocument();

    await user.click(within(editor).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(saved).toHaveBeenCalledWith({ bundleID, slug: 'echo-back', version: 'v1' }));
    const written = await core.call('tools.get', { bundleID, toolSlug: 'echo-back', version: 'v1' });
    expect(written).toMatchObject({ displayName: 'Echo back', impl: { method: 'GET', urlTemplate: 'https://example.com/echo/${word}' }, argSchema: { required: ['word'] } });
  });
});
