import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { BUNDLE_FILE_KEY_ORDER, type BundleFile } from '../../shared/schemas/bundle.js';
import { TOOL_FILE_KEY_ORDER, type ToolFile } from '../../shared/schemas/tool.js';
import { stringifyStable } from '../store/json-files.js';

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
