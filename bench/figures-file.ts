// The bench's figures as JSON (`--json FILE`), and a run compared with an earlier one (`--compare FILE`): each
// figure's ratio then and now, flagged where it grew by more than GREW_BY, so speed cannot slip unseen.
import { readFile, writeFile } from 'node:fs/promises';
import type { Figure } from './stats.js';

/** A ratio this much larger than before is flagged. */
const GREW_BY = 0.15;

/** Sections that could not run here and said why (no Chromium): not broken. */
export const skipped = new Set<string>();

/** Every figure reported in this run, in order. */
export const reported: Figure[] = [];

const keyOf = (figure: Figure) => `${figure.section} · ${figure.name} · ${figure.limitName}`;

/** The command line's flags with a value (`--json FILE`, `--compare FILE`), and the section names left. */
export function benchArguments(argv: readonly string[]): { sections: string[]; json?: string; compare?: string } {
  const sections: string[] = [];
  const flags: { json?: string; compare?: string } = {};
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    const [flag, inline] = arg.split('=', 2) as [string, string | undefined];
    if (flag === '--json' || flag === '--compare') flags[flag.slice(2) as 'json' | 'compare'] = inline ?? argv[++index];
    else if (!arg.startsWith('-')) sections.push(arg);
  }
  return { sections, ...flags };
}

/** Whether a section ran to its end and reported figures (npm test's smoke step counts these). */
export interface SectionOutcome {
  name: string;
  ok: boolean;
  skipped?: boolean;
  error?: string;
}

export async function writeFigures(file: string, sections: SectionOutcome[]): Promise<void> {
  await writeFile(file, `${JSON.stringify({ at: new Date().toISOString(), sections, figures: reported }, null, 2)}\n`);
}

/** Each figure of this run beside the same figure of an earlier one: the ratios, and whether it grew past GREW_BY. */
export async function compareWith(file: string): Promise<boolean> {
  const earlier = JSON.parse(await readFile(file, 'utf8')) as { at?: string; figures?: Figure[] };
  const before = new Map((earlier.figures ?? []).map((figure) => [keyOf(figure), figure.ours / figure.limit]));
  console.log(`\ncompared with ${file}${earlier.at ? ` (${earlier.at})` : ''}:`);
  let grew = false;
  for (const figure of reported) {
    const now = figure.ours / figure.limit;
    const then = before.get(keyOf(figure));
    const flag = then === undefined ? 'new' : now > then * (1 + GREW_BY) ? `GREW ${(((now - then) / then) * 100).toFixed(0)} %` : '';
    if (flag.startsWith('GREW')) grew = true;
    console.log(`${figure.section.padEnd(7)} ${figure.name.padEnd(44)} ${then === undefined ? '     –' : `${then.toFixed(2)}×`.padStart(6)} → ${`${now.toFixed(2)}×`.padStart(6)}  ${flag}`);
  }
  return !grew;
}
