import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import path from 'node:path';
import { PROJECT_ROOT } from '../testing/cores/spawned-host.js';
import { layerTable } from '../lint/layers.mjs';

const run = promisify(execFile);

// The project's real eslint.config.js, applied to snippets placed in each
// folder. Type-aware rules are switched off: the snippets are not files.
const eslint = new ESLint({
  cwd: PROJECT_ROOT,
  overrideConfig: [{ files: ['**/*.ts', '**/*.tsx'], ...tseslint.configs.disableTypeChecked }],
});

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${PROJECT_ROOT}/${filePath}` });
  return result!.messages
    .filter((message) => /restricted|layers/.test(message.ruleId ?? ''))
    .map((message) => message.message);
}

describe('lint boundaries (ARCHITECTURE.md)', () => {
  it('lets only app/ and preload/ import electron at runtime', async () => {
    const code = "import { app } from 'electron';\nexport const a = app;\n";
    expect(await boundaryErrors('app/probe.ts', code)).toEqual([]);
    expect(await boundaryErrors('preload/probe.ts', code)).toEqual([]);
    expect(await boundaryErrors('main/server/probe.ts', code)).toEqual([expect.stringContaining('only type imports')]);
    expect(await boundaryErrors('renderer/probe.ts', code)).toHaveLength(1);
    expect(await boundaryErrors('shared/probe.ts', code)).toHaveLength(1);
  });

  it('lets main/ import electron types', async () => {
    expect(await boundaryErrors('main/server/probe.ts', "import type { App } from 'electron';\nexport type A = App;\n")).toEqual([]);
  });

  it('keeps node out of renderer/ and shared/', async () => {
    for (const specifier of ['node:fs', 'fs', 'path', 'node:child_process', 'fs/promises']) {
      const code = `import * as m from '${specifier}';\nexport const x = m;\n`;
      expect(await boundaryErrors('renderer/probe.ts', code), specifier).toHaveLength(1);
      expect(await boundaryErrors('shared/probe.ts', code), specifier).toHaveLength(1);
      expect(await boundaryErrors('main/server/probe.ts', code), specifier).toEqual([]);
    }
    expect(await boundaryErrors('renderer/probe.ts', 'export const env = process.env;\n')).toHaveLength(1);
  });

  it('keeps the composition root out of the services, and the services out of main/common', async () => {
    const importCore = "import { createCore } from '../core/create-core.js';\nexport const c = createCore;\n";
    for (const folder of ['chat', 'store', 'tools', 'common', 'providers']) {
      expect(await boundaryErrors(`main/${folder}/probe.ts`, importCore), folder).toEqual([expect.stringContaining(`may not import main/core`)]);
    }
    expect(await boundaryErrors('main/server/probe.ts', importCore)).toEqual([]);
    expect(await boundaryErrors('testing/cores/probe.ts', "import { createCore } from '../../main/core/create-core.js';\nexport const c = createCore;\n")).toEqual([]);
    // The composition root imports what it composes, named one by one: not the hosts above it, not test support.
    expect(await boundaryErrors('main/core/probe.ts', "import { startHttpHost } from '../server/http-host.js';\nexport const h = startHttpHost;\n")).toEqual([expect.stringContaining('main/core may not import main/server')]);
    expect(await boundaryErrors('main/core/probe.ts', "import { seedBundle } from '../../testing/data/seed.js';\nexport const s = seedBundle;\n")).toEqual([expect.stringContaining('main/core may not import testing')]);
    const importStore = "import { ToolStore } from '../store/tool-store.js';\nexport const s = ToolStore;\n";
    expect(await boundaryErrors('main/common/probe.ts', importStore)).toEqual([expect.stringContaining('main/common may not import main/store')]);
    expect(await boundaryErrors('main/chat/probe.ts', importStore)).toEqual([]);
  });

  it('lets each layer import only the layers below it that the table names', async () => {
    const importChat = "import { ChatEngine } from '../chat/chat-engine.js';\nexport const e = ChatEngine;\n";
    // A floor never imports one above it: the store, the tools and the MCP host do not reach into chats.
    for (const folder of ['store', 'tools', 'mcp-server', 'agents', 'providers']) {
      expect(await boundaryErrors(`main/${folder}/probe.ts`, importChat), folder).toEqual([expect.stringContaining(`main/${folder} may not import main/chat`)]);
    }
    expect(await boundaryErrors('main/store/probe.ts', "import { SHIPPED_BUNDLES } from '../builtins/index.js';\nexport const b = SHIPPED_BUNDLES;\n")).toEqual([expect.stringContaining('may not import main/builtins')]);
    expect(await boundaryErrors('main/mcp-server/probe.ts', "import { readJsonBody } from '../server/http-host.js';\nexport const r = readJsonBody;\n")).toEqual([expect.stringContaining('may not import main/server')]);
    expect(await boundaryErrors('shared/probe.ts', "import { ToolStore } from '../main/store/tool-store.js';\nexport const s = ToolStore;\n")).toEqual([expect.stringContaining('shared may not import main/store')]);
  });

  it('holds tests to their layer too: a test file with a forbidden import fails', async () => {
    const code = "import { ToolStore } from '../main/store/tool-store.js';\nexport const s = ToolStore;\n";
    expect(await boundaryErrors('shared/probe.test.ts', code)).toEqual([expect.stringContaining('shared may not import main/store')]);
    expect(await boundaryErrors('renderer/features/probe.test.ts', "import { createCore } from '../../main/core/create-core.js';\nexport const c = createCore;\n")).toHaveLength(1);
    // Tests of the core build a core and its peers.
    expect(await boundaryErrors('main/store/probe.test.ts', "import { startTestCore } from '../../testing/harness/test-core.js';\nexport const s = startTestCore;\n")).toEqual([]);
    // The product itself never does.
    expect(await boundaryErrors('main/store/probe.ts', "import { startTestCore } from '../../testing/harness/test-core.js';\nexport const s = startTestCore;\n")).toEqual([expect.stringContaining('main/store may not import testing')]);
  });

  it('keeps vitest out of every file the app ships: only tests and testing/ use it', async () => {
    const { stdout } = await run('git', ['ls-files', 'app', 'preload', 'main', 'renderer', 'shared'], { cwd: PROJECT_ROOT });
    const shipped = stdout.split('\n').filter((file) => /\.(ts|tsx|mts|mjs|js)$/.test(file) && !/\.test\.tsx?$/.test(file));
    expect(shipped.length).toBeGreaterThan(300);
    const importers: string[] = [];
    for (const file of shipped) if (/from ['"]vitest['"]|import\(['"]vitest['"]\)/.test(await readFile(path.join(PROJECT_ROOT, file), 'utf8'))) importers.push(file);
    expect(importers).toEqual([]);
  });

  it('refuses a file that belongs to no layer', async () => {
    expect(await boundaryErrors('main/newfolder/probe.ts', 'export const a = 1;\n')).toEqual([expect.stringContaining('belongs to no layer')]);
  });

  it('keeps renderer/queries/ from importing features/', async () => {
    const code = "import { ChatList } from '../features/chat/ChatList.js';\nexport const c = ChatList;\n";
    expect(await boundaryErrors('renderer/queries/probe.ts', code)).toEqual([expect.stringContaining('renderer/queries may not import renderer/features')]);
    expect(await boundaryErrors('renderer/components/probe.ts', code)).toEqual([expect.stringContaining('renderer/components may not import renderer/features')]);
    expect(await boundaryErrors('renderer/App.tsx', "import { ChatList } from './features/chat/ChatList.js';\nexport const c = ChatList;\n")).toEqual([]);
    // The node rules still hold there.
    expect(await boundaryErrors('renderer/queries/probe.ts', "import fs from 'node:fs';\nexport const f = fs;\n")).toHaveLength(1);
  });

  it('has the layer table of docs/architecture.md', async () => {
    const docs = await readFile(path.join(PROJECT_ROOT, 'docs/architecture.md'), 'utf8');
    expect(docs).toContain(layerTable());
  });
});
