import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolCall } from '../../shared/schemas/chat.js';
import { asMcpToolResult } from '../../shared/mcp/mcp-tool-result.js';
import { callResult } from '../tools/call-result.js';
import { expectOk } from '../../testing/harness/invoke-harness.js';
import { PROJECT_ROOT } from '../../testing/cores/spawned-host.js';
import { startTestCore } from '../../testing/harness/test-core.js';
import { tempDirForTest } from '../../testing/harness/test-temp-dir.js';
import { toolResultImages, toolResultText } from '../providers/transcript.js';
import { mcpBundleID } from './identity.js';

const server = (name: string, ...args: string[]) => ({ command: process.execPath, args: [path.join(PROJECT_ROOT, `node_modules/@modelcontextprotocol/${name}/dist/index.js`), ...args] });
// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

const asCall = (result: Parameters<typeof callResult>[0]): ToolCall => ({ id: 'call_1', name: 'read_media_file', args: {}, status: 'succeeded', result: callResult(result) });

describe('structured content does not hide the content blocks a server sends with it', () => {
  it('the filesystem server’s read_media_file: the picture reaches the model as a picture, not base64 text', async () => {
    const folder = await tempDirForTest('media-');
    await writeFile(path.join(folder, 'dot.png'), PNG);
    const { call } = await startTestCore();
    await call('mcpServers.put', { name: 'files', config: server('server-filesystem', folder) });
    const result = expectOk(await call('tools.invoke', { bundleID: mcpBundleID('files'), toolSlug: 'read_media_file', version: 'mcp', args: { path: path.join(folder, 'dot.png') } }));

    // The value is the structured content, checked against the tool's outputSchema; the blocks are kept beside it.
    const image = { type: 'image', mimeType: 'image/png', data: PNG.toString('base64') };
    expect(result.value).toEqual({ content: [image] });
    expect(result.content).toEqual([image]);

    const toolCall = asCall(result);
    const forModel = toolResultText(toolCall);
    expect(forModel.text).toBe('[image image/png, 70 bytes, shown to the user]');
    expect(forModel.text).not.toContain(PNG.toString('base64'));
    expect(toolResultImages(toolCall)).toEqual([{ mimeType: 'image/png', data: PNG.toString('base64') }]);
    // An app (or a client of Toolbelt's MCP server) gets both, as the server sent them.
    expect(asMcpToolResult(result, true)).toEqual({ content: [image], structuredContent: { content: [image] } });
  });

  it('server-everything’s get-structured-content: blocks that only repeat the value as JSON are not kept twice', async () => {
    const { call } = await startTestCore();
    await call('mcpServers.put', { name: 'everything', config: server('server-everything', 'stdio') });
    const result = expectOk(await call('tools.invoke', { bundleID: mcpBundleID('everything'), toolSlug: 'get-structured-content', version: 'mcp', args: { location: 'Chicago' } }));
    expect(result.value).toMatchObject({ temperature: expect.any(Number) as unknown, conditions: expect.any(String) as unknown });
    expect(result.content).toBeUndefined();
    expect(JSON.parse(toolResultText(asCall(result)).text)).toEqual(result.value);
  });
});
