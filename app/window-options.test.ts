import { describe, expect, it } from 'vitest';
import { hardenedWebPreferences, mainWindowOptions } from './window-options.js';

describe('main window options', () => {
  it('isolate the renderer from Node and the OS', () => {
    const preferences = mainWindowOptions('/app/out/preload/preload.cjs').webPreferences!;
    expect(preferences).toMatchObject({
      preload: '/app/out/preload/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
    });
  });

  it('never enable anything that weakens isolation', () => {
    const preferences = hardenedWebPreferences('/p.cjs') as Record<string, unknown>;
    for (const risky of ['enableBlinkFeatures', 'additionalArguments', 'partition', 'plugins', 'enableRemoteModule']) {
      expect(preferences).not.toHaveProperty(risky);
    }
  });

  it('start hidden until the first paint, at a usable size', () => {
    const options = mainWindowOptions('/p.cjs');
    expect(options.show).toBe(false);
    expect(options.minWidth).toBeGreaterThanOrEqual(800);
  });
});
