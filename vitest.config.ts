import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    // Component tests (renderer/**/*.test.tsx) say `@vitest-environment happy-dom` at their top.
    include: ['{app,preload,main,renderer,shared,builtins,scripts,docs}/**/*.test.ts', 'renderer/**/*.test.tsx'],
    globalSetup: ['./scripts/vitest-global-setup.ts'],
    setupFiles: ['./scripts/vitest-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Two cores on these machines; process-level tests spawn hosts of their own.
    maxWorkers: 2,
  },
});
