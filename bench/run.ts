// npm run bench [-- section…]: each figure is a ratio against a limit
// measured in the same run, with the absolute numbers beside it.
import { benchApps } from './apps.js';
import { benchChat } from './chat.js';
import { benchImports } from './imports.js';
import { benchInvoke } from './invoke.js';
import { benchMcp } from './mcp.js';
import { benchMcpServer } from './mcp-server.js';
import { benchHooks } from './hooks.js';
import { benchInstall } from './install.js';
import { benchRegex } from './regex.js';
import { benchScript } from './script.js';
import { benchRecipe } from './recipe.js';
import { benchStore } from './store.js';
import { benchToolSearch } from './tool-search.js';
import { benchUi } from './ui.js';
import { benchArguments, compareWith, reported, skipped, writeFigures, type SectionOutcome } from './figures-file.js';
import { SMOKE } from './stats.js';

const SECTIONS: Record<string, () => Promise<boolean>> = { store: benchStore, invoke: benchInvoke, chat: benchChat, regex: benchRegex, mcp: benchMcp, 'mcp-server': benchMcpServer, hooks: benchHooks, install: benchInstall, imports: benchImports, 'tool-search': benchToolSearch, ui: benchUi, apps: benchApps, script: benchScript, recipe: benchRecipe };

// Sections by name; `--json FILE` writes the figures, `--compare FILE` sets them beside an earlier run's, `--smoke`
// runs each at a small size (npm test: every section still runs and prints its figures; no verdicts).
const { sections: wanted, json, compare } = benchArguments(process.argv.slice(2));
const unknown = wanted.filter((name) => !SECTIONS[name]);
if (unknown.length) {
  console.error(`Unknown section ${unknown.join(', ')}; sections are: ${Object.keys(SECTIONS).join(', ')}.`);
  process.exit(2);
}
// A section waiting on something that can no longer happen (a timer that does not keep the process alive) ends the
// process quietly with nothing left to run: said, and a failure, never a run that looks complete.
let reachedTheEnd = false;
process.on('exit', (code) => {
  if (reachedTheEnd || code !== 0) return;
  console.error('bench: stopped before its end: a section waited on something that never came (see the last section printed)');
  process.exitCode = 1;
});
let allMet = true;
const outcomes: SectionOutcome[] = [];
for (const [name, run] of Object.entries(SECTIONS)) {
  if (wanted.length && !wanted.includes(name)) continue;
  const figuresBefore = reported.length;
  try {
    allMet = (await run()) && allMet;
    // A section that ran but printed no figure measures nothing any more: as broken as one that crashed.
    if (skipped.has(name)) outcomes.push({ name, ok: true, skipped: true });
    else outcomes.push(reported.length > figuresBefore ? { name, ok: true } : { name, ok: false, error: 'it reported no figure' });
  } catch (error) {
    // The other sections still run, so one run shows every section that broke.
    console.error(`bench ${name} failed:`, error);
    outcomes.push({ name, ok: false, error: error instanceof Error ? error.message : String(error) });
  }
}
const broken = outcomes.filter((outcome) => !outcome.ok);
if (SMOKE) console.log(`bench smoke: ${outcomes.length - broken.length} of ${outcomes.length} sections ran and printed their figures`);
else console.log(allMet ? 'bench: every goal met' : 'bench: some goals missed (marked MISSED)');
for (const { name, error } of broken) console.log(`bench: section ${name} is broken: ${error}`);
if (json) await writeFigures(json, outcomes);
if (compare && !(await compareWith(compare))) console.log('bench: some figures grew by more than 15 % (marked GREW)');
reachedTheEnd = true;
process.exit(broken.length ? 1 : 0);
