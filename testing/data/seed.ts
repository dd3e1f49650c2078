import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { BUNDLE_FILE_KEY_ORDER, type BundleFile } from '../../shared/schemas/bundle.js';
import { TOOL_FILE_KEY_ORDER, type ToolFile } from '../../shared/schemas/tool.js';
import { stringifyStable } from '../../main/common/json-files.js';
import { blankChat } from '../../shared/chat/chat-calls.js';

/**
 * Writes bundles and tools straight into a data folder, as a `git clone` of
 * a bundles repository would: faster than the API for big stores, and it
 * exercises the cold load.
 */
export async function seedBundle(
  dataDir: string,
  options: { bundle?: Partial<BundleFile>; tools: Partial<ToolFile>[] },
): Promise<{ bundleID: string; tools: ToolFile[] }> {
  const bundleID = options.bundle?.bundleID ?? uuidv7();
  const at = '2026-01-01T00:00:00.000Z';
  const bundle: BundleFile = {
    schemaVersion: '1',
    bundleID,
    slug: 'seeded',
    displayName: 'Seeded',
    description: '',
    isEnabled: true,
    isBuiltIn: false,
    createdAt: at,
    modifiedAt: at,
    ...options.bundle,
  };
  const toolsDir = path.join(dataDir, 'bundles', bundleID, 'tools');
  await mkdir(toolsDir, { recursive: true });
  await writeFile(path.join(dataDir, 'bundles', bundleID, 'bundle.json'), stringifyStable({ ...bundle }, BUNDLE_FILE_KEY_ORDER));
  const tools: ToolFile[] = [];
  for (const partial of options.tools) {
    const tool = {
      schemaVersion: '1',
      toolID: uuidv7(),
      bundleID,
      slug: 'tool',
      version: 'v1',
      displayName: 'Tool',
      description: '',
      tags: [],
      type: 'http',
      isEnabled: true,
      isBuiltIn: false,
      argSchema: { type: 'object', properties: {} },
      impl: { method: 'GET', urlTemplate: 'https://api.example.com/' },
      createdAt: at,
      modifiedAt: at,
      ...partial,
    } as ToolFile;
    await writeFile(path.join(toolsDir, `${tool.toolID}.json`), stringifyStable({ ...tool }, TOOL_FILE_KEY_ORDER));
    tools.push(tool);
  }
  return { bundleID, tools };
}

/**
 * A chat of `count` messages (questions and answers with a little Markdown)
 * and the scripted provider it uses, written as the app would have saved them.
 */
export async function seedLongChat(dataDir: string, count: number, title = 'Long chat'): Promise<string> {
  const at = (index: number) => new Date(Date.UTC(2026, 0, 1) + index * 1000).toISOString();
  const messages = Array.from({ length: count }, (_, index) =>
    index % 2 === 0
      ? { id: uuidv7(), role: 'user', content: `Question ${index / 2 + 1}`, createdAt: at(index) }
      : {
          id: uuidv7(),
          role: 'assistant',
          content: `Answer ${(index + 1) / 2} with **bold** text${index % 10 === 1 ? '\n\n```js\nconsole.log("code");\n```' : ''}`,
          toolCalls: [],
          model: 'scripted',
          createdAt: at(index),
          finishReason: 'stop',
        },
  );
  const chatId = uuidv7();
  const chat = { ...blankChat({ id: chatId, title, providerId: 'script', model: 'scripted', createdAt: at(0) }), updatedAt: at(count), messages };
  await mkdir(path.join(dataDir, 'chats'), { recursive: true });
  await writeFile(path.join(dataDir, 'chats', `${chatId}.json`), JSON.stringify(chat));
  await writeFile(
    path.join(dataDir, 'providers.json'),
    JSON.stringify({ schemaVersion: '1', providers: [{ id: 'script', kind: 'scripted', displayName: 'Script' }] }),
  );
  return chatId;
}
