import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './scripts/chromium.mjs';

// scripts/e2e.mjs checks that a Chromium exists before this runs.
const executablePath = findChromium() ?? undefined;

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: '.artifacts/e2e-results.json' }]],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath, args: CHROMIUM_ARGS },
    viewport: { width: 1280, height: 800 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'browser-host', testIgnore: /electron\.spec\.ts$/ },
    // Needs a real Electron binary, which these machines cannot download.
    ...(process.env.ELECTRON_PATH ? [{ name: 'electron', testMatch: /electron\.spec\.ts$/ }] : []),
  ],
});
