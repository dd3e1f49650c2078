// `npm run lint`: ESLint over the whole tree, typed rules included. Linting with types is one
// process's work on one core (~210 s here, most of CI's lint step); the renderer and the rest share
// little, so with two cores they are linted side by side (~135 s). Output is printed per part,
// not interleaved, and the step fails when either part does.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ESLINT = path.join(ROOT, 'node_modules/eslint/bin/eslint.js');
const COMMON = ['--max-warnings', '0'];

const parts =
  os.availableParallelism() > 1
    ? [
        { name: 'renderer/', args: ['renderer'] },
        { name: 'everything else', args: ['.', '--ignore-pattern', 'renderer/**'] },
      ]
    : [{ name: 'the tree', args: ['.'] }];

/** One ESLint run, its output kept to print whole. */
function lint(part) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [ESLINT, ...COMMON, ...part.args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ part, code: 1, output: `${output}${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ part, code: code ?? 1, output: signal ? `${output}ESLint was stopped (${signal}).\n` : output }));
  });
}

const results = await Promise.all(parts.map(lint));
for (const { part, code, output } of results) {
  if (output.trim() !== '') process.stdout.write(`── lint: ${part.name}\n${output}`);
  if (code !== 0) console.log(`lint: ${part.name} failed (exit code ${code})`);
}
process.exit(results.every((result) => result.code === 0) ? 0 : 1);
