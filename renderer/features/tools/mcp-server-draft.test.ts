import { describe, expect, it } from 'vitest';
import { askFirstOf, configOf, documentOf, draftOf, EMPTY_DRAFT, withAskFirst } from './mcp-server-draft.js';

describe("the MCP server form's fields and the JSON beside them", () => {
  it('turns typed lines into a config: arguments a line each (spaces kept), KEY=value, Name: value', () => {
    const command = { ...EMPTY_DRAFT, name: 'files', command: ' npx ', args: '-y\n@modelcontextprotocol/server-filesystem\n/home/me/My Notes\n', env: 'DEBUG=1\nTOKEN=${secret.FILES_TOKEN}' };
    expect(configOf(command)).toEqual({ command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/My Notes'], env: { DEBUG: '1', TOKEN: '${secret.FILES_TOKEN}' } });
    const remote = { ...EMPTY_DRAFT, kind: 'url' as const, url: 'https://mcp.example.com/mcp', headers: 'Authorization: Bearer ${secret.KEY}\nX-Team: a:b' };
    expect(configOf(remote)).toEqual({ url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer ${secret.KEY}', 'X-Team': 'a:b' } });
  });

  it('reads a pasted config back into the fields, keeping what the form has no field for', () => {
    const config = { url: 'https://mcp.example.com/mcp', headers: { 'X-Key': '${secret.K}' }, oauth: { clientId: 'toolbelt' }, askFirst: 'never' };
    const draft = draftOf('remote', config);
    expect(draft).toMatchObject({ name: 'remote', kind: 'url', url: 'https://mcp.example.com/mcp', headers: 'X-Key: ${secret.K}' });
    expect(configOf(draft)).toEqual(config);
    expect(JSON.parse(documentOf(draft))).toEqual({ mcpServers: { remote: config } });
    const local = { command: 'node', args: ['server.js', '--port', '0'], env: { A: 'x=y' }, cwd: '/srv' };
    expect(configOf(draftOf('local', local))).toEqual(local);
  });

  it('takes anything without failing: a hostile or odd config gives empty fields, not an error', () => {
    expect(draftOf('x', null)).toMatchObject({ kind: 'command', command: '', args: '' });
    expect(draftOf('x', { command: 42, args: 'not a list', env: ['a'] })).toMatchObject({ command: '', args: '', env: '' });
  });

  it('says whether its tools ask first: asking is the default and no field, a choice is the config’s askFirst, anything else reads as asking', () => {
    const draft = draftOf('files', { command: 'npx', cwd: '/srv' });
    expect(askFirstOf(draft)).toBe('ask');
    const trusted = withAskFirst(draft, 'never');
    expect(configOf(trusted)).toEqual({ command: 'npx', cwd: '/srv', askFirst: 'never' });
    expect(askFirstOf(draftOf('files', configOf(trusted)))).toBe('never');
    expect(configOf(withAskFirst(trusted, 'ask'))).toEqual({ command: 'npx', cwd: '/srv' });
    expect(askFirstOf(draftOf('odd', { command: 'npx', askFirst: 'sometimes' }))).toBe('ask');
  });
});
