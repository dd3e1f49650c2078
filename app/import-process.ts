import { utilityProcess } from 'electron';
import type { LaunchImportProcess } from '../main/core/create-core.js';

/**
 * The desktop app's import process: Electron's utility process, since the
 * app's fuses close the Node mode of its binary that Node's `fork` would
 * start it in (it would start a second Toolbelt instead).
 */
export const utilityImportProcess: LaunchImportProcess = (entry, args = []) => {
  const child = utilityProcess.fork(entry, args, { stdio: ['ignore', 'ignore', 'pipe'], serviceName: 'Toolbelt import' });
  let spawned = false;
  const waiting: unknown[] = [];
  child.once('spawn', () => {
    spawned = true;
    for (const message of waiting.splice(0)) child.postMessage(message);
  });
  return {
    send: (message) => (spawned ? child.postMessage(message) : waiting.push(message)),
    onMessage: (listener) => child.on('message', listener),
    onExit: (listener) => child.once('exit', (code) => listener(`exit code ${code}`)),
    // A fatal error in it ends it, and its exit says so.
    onError: () => undefined,
    onStderr: (listener) => child.stderr?.on('data', (chunk: Buffer) => listener(chunk.toString('utf8'))),
    kill: () => void child.kill(),
  };
};
