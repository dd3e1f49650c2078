import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PROJECT_ROOT } from '../testing/cores/spawned-host.js';

const require = createRequire(import.meta.url);

type Validate = (config: unknown) => Promise<void>;

/** electron-builder's validator (its JSON schema plus its own checks), without building anything. */
function electronBuilderValidator(): Validate {
  const config = require('app-builder-lib/out/util/config/config') as {
    validateConfiguration: (config: unknown, debug: unknown) => Promise<void>;
  };
  const util = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
  return (candidate) => config.validateConfiguration(candidate, new util.DebugLogger(false));
}

async function loadConfig(): Promise<Record<string, unknown>> {
  return parse(await readFile(path.join(PROJECT_ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, unknown>;
}

describe('electron-builder.yml', () => {
  it('passes electron-builder’s own validation', async () => {
    // A real build would download Electron, so only the validation runs.
    await expect(electronBuilderValidator()(await loadConfig())).resolves.toBeUndefined();
  });

  it('registers toolbelt:// links and .mcpb files with the system', async () => {
    const config = await loadConfig();
    expect(config.protocols).toEqual([{ name: 'Toolbelt link', schemes: ['toolbelt'] }]);
    expect(config.fileAssociations).toMatchObject([{ ext: 'mcpb' }]);
  });

  it('rejects a broken configuration (the validator is really checking)', async () => {
    const broken = { ...(await loadConfig()), asar: 'yes please' };
    await expect(electronBuilderValidator()(broken)).rejects.toThrow(/asar/);
  });

  it('pins the same Electron as package.json and names every target', async () => {
    const config = await loadConfig();
    const packageJson = JSON.parse(await readFile(path.join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    expect(config.electronVersion).toBe(packageJson.devDependencies.electron);
    expect(config.appId).toMatch(/^[a-z0-9.-]+$/);
    expect(config.productName).toBe('Toolbelt');
    expect(config.asar).toBe(true);
    expect((config.linux as { target: string[] }).target).toEqual(['AppImage', 'deb']);
    expect((config.mac as { target: string[] }).target).toEqual(['dmg']);
    expect((config.win as { target: string[] }).target).toEqual(['nsis']);
  });

  it('ships with the fuses that close Node entry points', async () => {
    expect((await loadConfig()).electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
  });
});
