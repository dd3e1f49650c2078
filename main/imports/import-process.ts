import { fork } from 'node:child_process';

/**
 * One process an API description is converted in, as the core drives it:
 * requests in one at a time, an answer out for each (and a word that it is ready, before the first), its exit and its
 * last words (stderr).
 * Node's `fork` by default; the desktop app passes Electron's utility
 * process, since its fuses close the Electron binary's Node mode that
 * `fork` would need.
 */
export interface ImportProcess {
  send(message: unknown): void;
  /** Every message: `{ ready: true }` once it has warmed up, then an answer for each request. */
  onMessage(listener: (message: unknown) => void): void;
  onExit(listener: (why: string) => void): void;
  /** It could not be started or reached at all. */
  onError(listener: (error: Error) => void): void;
  onStderr(listener: (text: string) => void): void;
  kill(): void;
}

/** `args`: `[AHEAD_ARG]` for a process started before its description is given (it warms up meanwhile). */
export type LaunchImportProcess = (entry: string, args?: string[]) => ImportProcess;

/** Said to a process started ahead: it reads a small description of its own, then says it is ready. */
export const AHEAD_ARG = '--ahead';

/** Node's fork, messages as structured clones ('advanced'): the converted description crosses whole. */
export const forkImportProcess: LaunchImportProcess = (entry, args = []) => {
  const child = fork(entry, args, { serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
  return {
    send: (message) => child.send(message as never),
    onMessage: (listener) => child.on('message', listener),
    onExit: (listener) => child.once('exit', (code, signal) => listener(signal ?? `exit code ${code}`)),
    onError: (listener) => child.once('error', listener),
    onStderr: (listener) => child.stderr?.on('data', (chunk: Buffer) => listener(chunk.toString('utf8'))),
    kill: () => child.kill('SIGKILL'),
  };
};
