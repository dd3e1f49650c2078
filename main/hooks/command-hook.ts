import { spawn } from 'node:child_process';

/** What a hook command may print on each stream; past it the rest is dropped (a hook printing 100 MB costs nothing). */
export const HOOK_OUTPUT_LIMIT = 1024 * 1024;
/** Claude Code's default time for a command hook. */
export const DEFAULT_HOOK_TIMEOUT_S = 60;

export interface CommandOutcome {
  /** The exit code, or null when it did not exit by itself (stopped at its timeout, cancelled, or never started). */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Why it did not exit by itself. */
  failure?: 'timeout' | 'cancelled' | 'not_started';
  /** For `not_started`: the system's reason. */
  reason?: string;
}

/** Collects a stream's text up to the limit, dropping the rest. */
function capped(): { add(chunk: Buffer): void; text(): string } {
  const chunks: Buffer[] = [];
  let size = 0;
  return {
    add(chunk) {
      if (size >= HOOK_OUTPUT_LIMIT) return;
      const kept = chunk.subarray(0, HOOK_OUTPUT_LIMIT - size);
      chunks.push(kept);
      size += kept.length;
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
  };
}

/**
 * Runs a hook's command through the shell, as Claude Code does, with the call's JSON on stdin. It runs in a process
 * group of its own, so that at its timeout or a cancel it is stopped with everything it started.
 */
export function runCommandHook(command: string, input: string, options: { timeoutMs: number; signal?: AbortSignal; cwd: string; env: NodeJS.ProcessEnv }): Promise<CommandOutcome> {
  return new Promise((resolve) => {
    const windows = process.platform === 'win32';
    const child = spawn(windows ? 'cmd.exe' : '/bin/sh', windows ? ['/d', '/s', '/c', command] : ['-c', command], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: !windows,
      windowsHide: true,
    });
    const stdout = capped();
    const stderr = capped();
    let stopped: CommandOutcome['failure'];
    const stop = (why: 'timeout' | 'cancelled') => {
      stopped ??= why;
      try {
        if (!windows && child.pid) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(() => stop('timeout'), options.timeoutMs);
    const onAbort = () => stop('cancelled');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => stdout.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.add(chunk));
    // A command that does not read its stdin closes it early: that is not a failure of the hook.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
    const finish = (outcome: CommandOutcome) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    child.once('error', (error) => finish({ exitCode: null, stdout: '', stderr: '', failure: 'not_started', reason: error.message }));
    child.once('close', (code) => finish({ exitCode: stopped ? null : code, stdout: stdout.text(), stderr: stderr.text(), ...(stopped ? { failure: stopped } : {}) }));
  });
}
