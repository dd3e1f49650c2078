// @vitest-environment happy-dom
import '@testing-library/jest-dom/vitest';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithCore } from '../../testing/with-core.js';
import { McpServerForm } from './McpServerForm.js';

afterEach(cleanup);

type ServersDocument = { mcpServers: Record<string, Record<string, unknown>> };
const serverJson = (): ServersDocument => JSON.parse(screen.getByRole<HTMLTextAreaElement>('textbox', { name: 'Server JSON' }).value) as ServersDocument;

describe('Add MCP server: whether its tools ask first', () => {
  it('asks for each tool unless the person chooses to trust the server; the choice is the JSON’s askFirst and follows what is pasted', async () => {
    const { user } = await renderWithCore(<McpServerForm onDone={() => {}} />);
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'files');
    await user.type(screen.getByRole('textbox', { name: 'Command' }), 'npx');
    const askFirst = screen.getByRole('combobox', { name: 'Before a model runs its tools' });
    expect(askFirst).toHaveValue('ask');
    expect(askFirst).toHaveAccessibleDescription(/claims nobody checked/);
    expect(serverJson().mcpServers.files).toEqual({ command: 'npx' });

    await user.selectOptions(askFirst, 'Never ask: I trust this server');
    expect(serverJson().mcpServers.files).toEqual({ command: 'npx', askFirst: 'never' });

    const json = screen.getByRole('textbox', { name: 'Server JSON' });
    await user.clear(json);
    await user.type(json, '{{"mcpServers": {{"remote": {{"url": "https://mcp.example.com/mcp", "askFirst": "as-annotated"}}}');
    expect(askFirst).toHaveValue('as-annotated');
    await user.selectOptions(askFirst, 'Ask for each tool (recommended)');
    expect(serverJson().mcpServers.remote).toEqual({ url: 'https://mcp.example.com/mcp' });
  });
});
