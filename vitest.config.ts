import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['{app,preload,main,renderer,shared,builtins,scripts,docs}/**/*.test.ts'],
    globalSetup: ['./scripts/vitest-global-setup.ts'],
    setupFiles: ['./scripts/vitest-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Two cores on these machines; process-level tests spawn hosts of their own.
    maxWorkers: 2,
  },
});
