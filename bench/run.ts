// npm run bench [-- section…]: each figure is a ratio against a limit
// measured in the same run, with the absolute numbers beside it.
import { benchApps } from './apps.js';
import { benchChat } from './chat.js';
import { benchImports } from './imports.js';
import { benchInvoke } from './invoke.js';
import { benchMcp } from './mcp.js';
import { benchMcpServer } from './mcp-server.js';
import { benchHooks } from './hooks.js';
import { benchRegex } from './regex.js';
import { benchScript } from './script.js';
import { benchRecipe } from './recipe.js';
import { benchStore } from './store.js';
import { benchToolSearch } from './tool-search.js';
import { benchUi } from './ui.js';
import { benchArguments, compareWith, writeFigures } from './figures-file.js';

const SECTIONS: Record<string, () => Promise<boolean>> = { store: benchStore, invoke: benchInvoke, chat: benchChat, regex: benchRegex, mcp: benchMcp, 'mcp-server': benchMcpServer, hooks: benchHooks, imports: benchImports, 'tool-search': benchToolSearch, ui: benchUi, apps: benchApps, script: benchScript, recipe: benchRecipe };

// Sections by name; `--json FILE` writes the figures, `--compare FILE` sets them beside an earlier run's.
const { sections: wanted, json, compare } = benchArguments(process.argv.slice(2));
const unknown = wanted.filter((name) => !SECTIONS[name]);
if (unknown.length) {
  console.error(`Unknown section ${unknown.join(', ')}; sections are: ${Object.keys(SECTIONS).join(', ')}.`);
  process.exit(2);
}
let allMet = true;
for (const [name, run] of Object.entries(SECTIONS)) {
  if (wanted.length && !wanted.includes(name)) continue;
  allMet = (await run()) && allMet;
}
console.log(allMet ? 'bench: every goal met' : 'bench: some goals missed (marked MISSED)');
if (json) await writeFigures(json);
if (compare && !(await compareWith(compare))) console.log('bench: some figures grew by more than 15 % (marked GREW)');
