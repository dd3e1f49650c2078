// What `npm test` needs beyond npm's packages, said in one line before the
// tiers run, with how to get whatever is missing.
import { spawnSync } from 'node:child_process';
import { findChromium } from './chromium.mjs';

/** Debian's python3-httpbin, which the HTTP tools' tests call (through /usr/bin/python3: a pyenv python lacks it). */
export function hasHttpbin() {
  return spawnSync('/usr/bin/python3', ['-c', 'import httpbin'], { stdio: 'ignore' }).status === 0;
}

/** The one line: each prerequisite found, or missing with the command that installs it. */
export function prerequisitesLine({ chromium, httpbin, requireE2E }) {
  const parts = [
    chromium ? `Chromium ${chromium}` : `Chromium MISSING (\`apt-get install chromium\` or PLAYWRIGHT_CHROMIUM_EXECUTABLE; the e2e tier ${requireE2E ? 'fails' : 'is skipped'} without it)`,
    httpbin ? 'python3-httpbin found' : 'python3-httpbin MISSING (`apt-get install python3-httpbin`; the HTTP tools\' unit tests fail without it)',
  ];
  return `npm test needs Chromium and python3-httpbin: ${parts.join('; ')}.`;
}

export function checkPrerequisites(env = process.env) {
  return prerequisitesLine({ chromium: findChromium(env), httpbin: hasHttpbin(), requireE2E: env.REQUIRE_E2E === '1' });
}
