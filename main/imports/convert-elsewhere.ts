import { fileURLToPath } from 'node:url';
import { ToolbeltError, type ErrorCode } from '../../shared/errors.js';
import type { Logger } from '../log.js';
import { convertDescription, type ConvertRequest } from './convert-description.js';
import type { ConvertedApi } from './openapi-tools.js';
import { AHEAD_ARG, forkImportProcess, type ImportProcess, type LaunchImportProcess } from './import-process.js';

/** A description still converting after this long is given up on: its process is ended. */
const CONVERT_TIMEOUT_MS = 180_000;

/** How long a process started ahead waits for a description before it is ended (its memory given back). */
const SPARE_KEPT_MS = 120_000;

type Answer = { ok: true; converted: ConvertedApi } | { ok: false; error: { code: ErrorCode; message: string; details?: unknown } };

export interface DescriptionConverter {
  convert(request: ConvertRequest): Promise<ConvertedApi>;
  /**
   * Starts a process for the next description, if none waits: the person is about to give one (the import screen
   * opened, or showed a preview and another may follow). A new process spends ~0.4 s loading and as long again on
   * its first description's code paths; one started ahead has done both (it reads a small one by itself). Only when
   * asked: one started after every answer doubled the processes of a run of previews, and slowed them on two cores.
   * Settles once that one is ready (or could not start: a conversion then starts its own); never fails.
   */
  prepare(): Promise<void>;
  /** Ends the process waiting, if any (the core closes). */
  close(): void;
}

interface Spare {
  child: ImportProcess;
  timer: NodeJS.Timeout;
  ended: boolean;
  ready: Promise<void>;
}

/** The word a process sends once it has warmed up; anything else it sends is its answer. */
const isReadyWord = (message: unknown) => typeof message === 'object' && message !== null && (message as { ready?: unknown }).ready === true;

/**
 * Converts an API description in a process of its own (`import-worker`), so
 * the garbage of a large one never grows the core's: its answer comes back
 * as a structured clone; its errors as the same ToolbeltErrors. Each process
 * converts one description and is ended. Where the process cannot start at
 * all, the core converts it itself and says so in the log.
 */
export function descriptionConverter(workerUrl: URL, log: Logger, launch: LaunchImportProcess = forkImportProcess, spareKeptMs = SPARE_KEPT_MS): DescriptionConverter {
  let spare: Spare | undefined;
  let closed = false;

  function takeSpare(): ImportProcess | undefined {
    const taken = spare;
    spare = undefined;
    if (!taken || taken.ended) return undefined;
    clearTimeout(taken.timer);
    return taken.child;
  }

  function prepare(): Promise<void> {
    if (closed) return Promise.resolve();
    if (spare && !spare.ended) return spare.ready;
    let child: ImportProcess;
    try {
      child = launch(fileURLToPath(workerUrl), [AHEAD_ARG]);
    } catch (error) {
      log.warn('the import process did not start ahead', { error: String(error) });
      return Promise.resolve();
    }
    let readyNow = () => {};
    const waiting: Spare = {
      child,
      ended: false,
      timer: setTimeout(() => takeSpare() === child && child.kill(), spareKeptMs),
      ready: new Promise<void>((resolve) => (readyNow = resolve)),
    };
    waiting.timer.unref();
    const ended = () => {
      waiting.ended = true;
      readyNow();
      if (spare === waiting) takeSpare();
    };
    child.onMessage((message) => isReadyWord(message) && readyNow());
    child.onExit(ended);
    child.onError(ended);
    spare = waiting;
    return waiting.ready;
  }

  function convert(request: ConvertRequest): Promise<ConvertedApi> {
    return new Promise<ConvertedApi>((resolve, reject) => {
      let child: ImportProcess;
      try {
        child = takeSpare() ?? launch(fileURLToPath(workerUrl));
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
        if (isReadyWord(message)) return;
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

  return {
    convert,
    prepare,
    close() {
      closed = true;
      takeSpare()?.kill();
    },
  };
}
