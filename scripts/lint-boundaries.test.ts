import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../main/testing/spawned-host.js';

// The project's real eslint.config.js, applied to snippets placed in each
// folder. Type-aware rules are switched off: the snippets are not files.
const eslint = new ESLint({
  cwd: PROJECT_ROOT,
  overrideConfig: [{ files: ['**/*.ts', '**/*.tsx'], ...tseslint.configs.disableTypeChecked }],
});

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${PROJECT_ROOT}/${filePath}` });
  return result!.messages
    .filter((message) => /restricted/.test(message.ruleId ?? ''))
    .map((message) => message.message);
}

describe('lint boundaries (ARCHITECTURE.md)', () => {
  it('lets only app/ and preload/ import electron at runtime', async () => {
    const code = "import { app } from 'electron';\nexport const a = app;\n";
    expect(await boundaryErrors('app/probe.ts', code)).toEqual([]);
    expect(await boundaryErrors('preload/probe.ts', code)).toEqual([]);
    expect(await boundaryErrors('main/probe.ts', code)).toEqual([expect.stringContaining('only type imports')]);
    expect(await boundaryErrors('renderer/probe.ts', code)).toHaveLength(1);
    expect(await boundaryErrors('shared/probe.ts', code)).toHaveLength(1);
  });

  it('lets main/ import electron types', async () => {
    expect(await boundaryErrors('main/probe.ts', "import type { App } from 'electron';\nexport type A = App;\n")).toEqual([]);
  });

  it('keeps node out of renderer/ and shared/', async () => {
    for (const specifier of ['node:fs', 'fs', 'path', 'node:child_process', 'fs/promises']) {
      const code = `import * as m from '${specifier}';\nexport const x = m;\n`;
      expect(await boundaryErrors('renderer/probe.ts', code), specifier).toHaveLength(1);
      expect(await boundaryErrors('shared/probe.ts', code), specifier).toHaveLength(1);
      expect(await boundaryErrors('main/probe.ts', code), specifier).toEqual([]);
    }
    expect(await boundaryErrors('renderer/probe.ts', 'export const env = process.env;\n')).toHaveLength(1);
  });

  it('keeps the composition root out of the services, and the services out of main/common', async () => {
    const importCore = "import { createCore } from '../core.js';\nexport const c = createCore;\n";
    for (const folder of ['chat', 'store', 'tools', 'common', 'providers']) {
      expect(await boundaryErrors(`main/${folder}/probe.ts`, importCore), folder).toEqual([expect.stringContaining('composition root')]);
    }
    expect(await boundaryErrors('main/server/probe.ts', importCore)).toEqual([]);
    expect(await boundaryErrors('main/testing/probe.ts', importCore)).toEqual([]);
    const importStore = "import { ToolStore } from '../store/tool-store.js';\nexport const s = ToolStore;\n";
    expect(await boundaryErrors('main/common/probe.ts', importStore)).toEqual([expect.stringContaining('shared kit')]);
    expect(await boundaryErrors('main/chat/probe.ts', importStore)).toEqual([]);
  });

  it('keeps renderer/queries/ from importing features/', async () => {
    const code = "import { ChatList } from '../features/chat/ChatList.js';\nexport const c = ChatList;\n";
    expect(await boundaryErrors('renderer/queries/probe.ts', code)).toEqual([expect.stringContaining('never imports features')]);
    expect(await boundaryErrors('renderer/components/probe.ts', code)).toEqual([]);
    // The node rules still hold there.
    expect(await boundaryErrors('renderer/queries/probe.ts', "import fs from 'node:fs';\nexport const f = fs;\n")).toHaveLength(1);
  });
});
