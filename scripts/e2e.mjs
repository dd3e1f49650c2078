// npm run test:e2e: Playwright against the real browser host in Chromium.
// Without any Chromium it says so and skips, unless REQUIRE_E2E=1.
import { spawnSync } from 'node:child_process';
import { ensureBuilt, ROOT } from './build-lib.mjs';
import { findChromium } from './chromium.mjs';

const chromium = findChromium();
if (!chromium) {
  const message =
    'e2e: no Chromium found (set PLAYWRIGHT_CHROMIUM_EXECUTABLE, or `apt-get install chromium`).';
  if (process.env.REQUIRE_E2E === '1') {
    console.error(`${message} REQUIRE_E2E=1, so this is a failure.`);
    process.exit(1);
  }
  console.error(`${message} Skipping the end-to-end tests.`);
  process.exit(0);
}

await ensureBuilt();
const result = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, PLAYWRIGHT_CHROMIUM_EXECUTABLE: chromium },
});
process.exit(result.status ?? 1);
