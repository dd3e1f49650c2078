import { fileURLToPath } from 'node:url';
import { ToolbeltError, type ErrorCode } from '../../shared/errors.js';
import type { Logger } from '../log.js';
import { convertDescription, type ConvertRequest } from './convert-description.js';
import type { ConvertedApi } from './openapi-tools.js';
import { forkImportProcess, type ImportProcess, type LaunchImportProcess } from './import-process.js';

/** A description still converting after this long is given up on: its process is ended. */
const CONVERT_TIMEOUT_MS = 180_000;

type Answer = { ok: true; converted: ConvertedApi } | { ok: false; error: { code: ErrorCode; message: string; details?: unknown } };

/**
 * Converts an API description in a process of its own (`import-worker`), so
 * the garbage of a large one never grows the core's: its answer comes back
 * as a structured clone; its errors as the same ToolbeltErrors. Where the
 * process cannot start at all, the core converts it itself and says so in
 * the log.
 */
export function descriptionConverter(workerUrl: URL, log: Logger, launch: LaunchImportProcess = forkImportProcess): (request: ConvertRequest) => Promise<ConvertedApi> {
  return (request) =>
    new Promise<ConvertedApi>((resolve, reject) => {
      let child: ImportProcess;
      try {
        child = launch(fileURLToPath(workerUrl));
      } catch (error) {
        log.warn('the import process did not start; converting in the core', { error: String(error) });
        convertDescription(request).then(resolve, reject);
        return;
      }
      let settled = false;
      let stderr = '';
      child.onStderr((text) => (stderr = (stderr + text).slice(-2_000)));
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        // One request, one answer: whatever it does next is not needed (Electron's utility process does not end itself).
        child.kill();
        outcome();
      };
      const timer = setTimeout(() => {
        settle(() => reject(new ToolbeltError('import_invalid', `The description took more than ${CONVERT_TIMEOUT_MS / 1000} s to read; it was given up on.`)));
      }, CONVERT_TIMEOUT_MS);
      child.onMessage((message) => {
        const answer = message as Answer;
        settle(() => (answer.ok ? resolve(answer.converted) : reject(new ToolbeltError(answer.error.code, answer.error.message, answer.error.details))));
      });
      child.onError((error) => {
        log.warn('the import process failed; converting in the core', { error: String(error) });
        settle(() => {
          convertDescription(request).then(resolve, reject);
        });
      });
      // A ToolbeltError, so the person reads why (a plain Error crosses to the window only as "internal").
      child.onExit((why) =>
        settle(() => reject(new ToolbeltError('import_invalid', `The description could not be read: the process reading it ended (${why}) before it answered. ${stderr.trim()}`.trim()))),
      );
      child.send(request);
    });
}
