// npm test: typecheck, lint, unit/integration tests, MCP conformance, end-to-end tests, a smoke run of the bench.
// Every step runs even after a failure, so one run shows every problem;
// the last line totals the tests: "tests: N passed, N failed".
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './build-lib.mjs';
import { ensureDependencies } from './dependencies.mjs';
import { checkPrerequisites } from './prerequisites.mjs';

const UNIT_RESULTS = path.join(ROOT, '.artifacts/unit-results.json');
const E2E_RESULTS = path.join(ROOT, '.artifacts/e2e-results.json');
const CONFORMANCE_RESULTS = path.join(ROOT, '.artifacts/conformance-results.json');
const BENCH_SMOKE_RESULTS = path.join(ROOT, '.artifacts/bench-smoke.json');

const steps = [
  { name: 'typecheck', command: ['npm', 'run', '--silent', 'typecheck'] },
  { name: 'lint', command: ['npm', 'run', '--silent', 'lint'] },
  {
    name: 'unit',
    command: ['npx', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${UNIT_RESULTS}`],
    counts: () => {
      const results = JSON.parse(readFileSync(UNIT_RESULTS, 'utf8'));
      const failed = results.numFailedTests + (results.numRuntimeErrorTestSuites ?? 0);
      return { passed: results.numPassedTests, failed, names: failedUnitTests(results) };
    },
  },
  {
    // The official MCP conformance suite against Toolbelt's MCP client and server (scripts/conformance.mjs).
    name: 'conformance',
    command: ['node', 'scripts/conformance.mjs'],
    counts: () => {
      const { passed, failed, asExpected, unexpected = [] } = JSON.parse(readFileSync(CONFORMANCE_RESULTS, 'utf8'));
      // Scenarios that fail as conformance/baseline.yml says they must (each with its reason) count neither way.
      // The summary names the others: it is often all of a CI run's output that is read.
      return { passed, failed: asExpected ? 0 : failed, names: unexpected };
    },
  },
  {
    name: 'e2e',
    command: ['node', 'scripts/e2e.mjs'],
    counts: () => {
      if (!existsSync(E2E_RESULTS)) return { passed: 0, failed: 0 };
      const results = JSON.parse(readFileSync(E2E_RESULTS, 'utf8'));
      const { stats } = results;
      return { passed: stats.expected + stats.flaky, failed: stats.unexpected, names: failedE2eTests(results) };
    },
  },
  {
    // Every bench section once at a small size: each still runs and prints its figures (speed cannot slip unseen
    // because a section broke). Timings are not judged here; `npm run bench` judges them on a quiet machine.
    // After e2e, whose build it reuses.
    name: 'bench smoke',
    command: ['node', 'scripts/bench.mjs', '--smoke', '--json', BENCH_SMOKE_RESULTS],
    counts: () => {
      const { sections } = JSON.parse(readFileSync(BENCH_SMOKE_RESULTS, 'utf8'));
      const broken = sections.filter((section) => !section.ok);
      return { passed: sections.length - broken.length, failed: broken.length, names: broken.map((section) => `bench ${section.name}`) };
    },
  },
];

/**
 * Each unit test that failed, as `file › title: first line of its error`, and each file that could not run:
 * the summary is often all of a CI run's output that is read.
 */
function failedUnitTests(results) {
  const names = [];
  for (const file of results.testResults ?? []) {
    const where = path.relative(ROOT, file.name);
    const failures = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failures) names.push(`${where} › ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    if (failures.length === 0 && file.status === 'failed') names.push(`${where}: ${firstLine(file.message)}`);
  }
  return names;
}

const stripColours = (text) => text.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');

/** An error's first line that says something, without terminal colours (Playwright's messages have them). */
const firstLine = (text) =>
  stripColours(text ?? '')
    .split('\n')
    .find((line) => line.trim() !== '')
    ?.trim()
    .slice(0, 200) ?? '';

/**
 * What an e2e test's error says, on one line: its first line, the line of the test that failed, and what
 * Playwright looked for and found (`Locator:`, `Expected …:`, `Received …:`) — a failed `expect` names
 * neither in its first line, and several in one test look alike.
 */
function e2eFailure(error) {
  const lines = stripColours(error?.message ?? '').split('\n').map((line) => line.trim());
  const looked = lines.filter((line) => /^(Locator|Expected[^:]*|Received[^:]*):/.test(line)).map((line) => line.slice(0, 160));
  const where = error?.location?.line ? ` (at line ${error.location.line})` : '';
  return [`${firstLine(error?.message)}${where}`, ...looked].join(' · ');
}

/** `file:line` of each e2e test that failed, from Playwright's JSON report (suites nest by file and describe). */
function failedE2eTests(results) {
  const names = [];
  const walk = (suite) => {
    for (const spec of suite.specs ?? []) {
      const failure = spec.tests?.find((test) => test.status === 'unexpected');
      if (failure) names.push(`${spec.file}:${spec.line}: ${e2eFailure(failure.results?.at(-1)?.error)}`);
    }
    for (const child of suite.suites ?? []) walk(child);
  };
  for (const suite of results.suites ?? []) walk(suite);
  return names;
}

ensureDependencies(ROOT);
console.log(checkPrerequisites());
rmSync(UNIT_RESULTS, { force: true });
rmSync(E2E_RESULTS, { force: true });
rmSync(CONFORMANCE_RESULTS, { force: true });
rmSync(BENCH_SMOKE_RESULTS, { force: true });

const outcomes = [];
for (const step of steps) {
  console.log(`\n━━ ${step.name} ━━`);
  const started = Date.now();
  const result = spawnSync(step.command[0], step.command.slice(1), { cwd: ROOT, stdio: 'inherit' });
  let counts;
  try {
    counts = step.counts?.() ?? null;
  } catch {
    counts = null; // the runner died before writing its results
  }
  // A runner that says it passed without writing its results stopped early: not a pass.
  outcomes.push({ name: step.name, ok: result.status === 0 && (!step.counts || counts !== null), seconds: (Date.now() - started) / 1000, counts });
}

console.log('\n━━ summary ━━');
let passed = 0;
let failed = 0;
for (const outcome of outcomes) {
  const detail = outcome.counts ? ` (${outcome.counts.passed} passed, ${outcome.counts.failed} failed)` : '';
  console.log(`${outcome.ok ? 'ok  ' : 'FAIL'} ${outcome.name}${detail} in ${outcome.seconds.toFixed(1)} s`);
  for (const name of outcome.counts?.names ?? []) console.log(`     failed: ${name}`);
  passed += outcome.counts?.passed ?? 0;
  failed += outcome.counts?.failed ?? 0;
  if (!outcome.ok && !outcome.counts?.failed) failed += 1;
}
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(outcomes.every((outcome) => outcome.ok) ? 0 : 1);
