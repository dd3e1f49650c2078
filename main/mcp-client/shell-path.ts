import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

const MARK = '__toolbelt_path__';

/**
 * The PATH a person's terminal has. Apps started from the desktop (Finder,
 * a launcher) do not read shell start-up files, so `npx` or `uvx` installed
 * through nvm, Homebrew or pipx is missing from their PATH: the most common
 * reason an MCP server "fails to start" in desktop apps. Asked once of the
 * login shell (with a deadline), then merged before the app's own PATH.
 */
export function loginShellPath(options: { shell?: string; inherited?: string; timeoutMs?: number } = {}): Promise<string> {
  const inherited = options.inherited ?? process.env.PATH ?? '';
  if (process.platform === 'win32') return Promise.resolve(inherited);
  const shell = options.shell ?? process.env.SHELL ?? '/bin/sh';
  return new Promise((resolve) => {
    let output = '';
    let settled = false;
    const finish = (found: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(mergePaths(found, inherited));
    };
    const child = spawn(shell, ['-ilc', `printf '${MARK}%s${MARK}' "$PATH"`], { stdio: ['ignore', 'pipe', 'ignore'], env: process.env });
    // A start-up file that waits for input or hangs must not hold servers back: the app's PATH then.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      child.stdout.destroy();
      finish('');
    }, options.timeoutMs ?? 5_000);
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', () => finish(''));
    child.on('close', () => finish(output.split(MARK)[1] ?? ''));
  });
}

function mergePaths(...lists: string[]): string {
  const seen = new Set<string>();
  for (const list of lists) for (const entry of list.split(path.delimiter)) if (entry) seen.add(entry);
  return [...seen].join(path.delimiter);
}

/** Where a command would be found on this PATH, or null; a command with a slash is taken as a path. */
export function findCommand(command: string, searchPath: string): string | null {
  const executable = (file: string) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (command.includes('/') || command.includes('\\')) return executable(command) ? command : null;
  const extensions = process.platform === 'win32' ? ['', '.cmd', '.exe', '.bat'] : [''];
  for (const folder of searchPath.split(path.delimiter)) {
    for (const extension of extensions) {
      const candidate = path.join(folder, command + extension);
      if (folder && executable(candidate)) return candidate;
    }
  }
  return null;
}
