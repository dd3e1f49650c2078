import { fileURLToPath } from 'node:url';
import { ToolbeltError, type ErrorCode } from '../../shared/errors.js';
import type { Logger } from '../log.js';
import { convertDescription, type ConvertRequest } from './convert-description.js';
import type { ConvertedApi } from './openapi-tools.js';
import { AHEAD_ARG, forkImportProcess, type ImportProcess, type LaunchImportProcess } from './import-process.js';

export interface DescriptionConverter {
  convert(request: ConvertRequest): Promise<ConvertedApi>;
  /**
   * Starts a process for the next description, if none waits (one kept after an answer does): the person is about
   * to give one (the import screen opened, or showed a preview and another may follow). A new process spends ~0.4 s
   * loading and as long again on its first description's code paths; one started ahead has done both (it reads a
   * small one by itself). Only when asked: one started after every answer doubled the processes of a run of
   * previews, and slowed them on two cores. Settles once that one is ready (or could not start: a conversion then
   * starts its own); never fails.
   */
  prepare(): Promise<void>;
  /** Ends the process waiting, if any (the core closes). */
  close(): void;
}

/** How long a process may read a description, and when it is kept for the next one and for how long. */
export interface ProcessLimits {
  /** How long a process waits for a description (started ahead, or after an answer) before it is ended, its memory given back. */
  spareKeptMs: number;
  /** Descriptions a process reads at most: whatever one of them left in it does not last. */
  usesPerProcess: number;
  /** A process that holds more than this after an answer (a large description's heap) is ended rather than kept. */
  keepBelowRssBytes: number;
  /**
   * A description still being read after this long is given up on: its process is ended. The one bound on a process's
   * reading (downloading, dereferencing, converting): it keeps no clock of its own (see loadApiDescription). A minute:
   * GitHub's 13 MB description takes a few seconds, its download 30 s at most.
   */
  readTimeoutMs: number;
}

const DEFAULT_LIMITS: ProcessLimits = { spareKeptMs: 120_000, usesPerProcess: 8, keepBelowRssBytes: 384 * 1024 * 1024, readTimeoutMs: 60_000 };

type Answer = ({ ok: true; converted: ConvertedApi } | { ok: false; error: { code: ErrorCode; message: string; details?: unknown } }) & { rss?: number };

/** What a process is doing for the conversion it reads now: told its answer, its end or its failure. */
interface Reading {
  answer(message: Answer): void;
  exit(why: string): void;
  error(error: Error): void;
}

interface Worker {
  child: ImportProcess;
  /** Descriptions it has been given. */
  uses: number;
  ended: boolean;
  ready: Promise<void>;
  /** Its last words (stderr), for an error that says why it ended. */
  stderr: string;
  reading?: Reading;
  /** Ends it when it has waited too long as the spare. */
  timer?: NodeJS.Timeout;
}

/** The word a process sends once it has warmed up; anything else it sends is its answer. */
const isReadyWord = (message: unknown) => typeof message === 'object' && message !== null && (message as { ready?: unknown }).ready === true;

/**
 * Converts an API description in a process of its own (`import-worker`), so
 * the garbage of a large one never grows the core's: its answer comes back
 * as a structured clone; its errors as the same ToolbeltErrors. A process
 * reads one description at a time; after its answer it is kept as the spare
 * for the next (a person who previews one often previews it again, with
 * another base URL, or the next API: a process that has read one reads the
 * next in about half the time), within `ProcessLimits`. Where the process
 * cannot start at all, the core converts it itself and says so in the log.
 */
export function descriptionConverter(workerUrl: URL, log: Logger, launch: LaunchImportProcess = forkImportProcess, limits: Partial<ProcessLimits> = {}): DescriptionConverter {
  const { spareKeptMs, usesPerProcess, keepBelowRssBytes, readTimeoutMs } = { ...DEFAULT_LIMITS, ...limits };
  let spare: Worker | undefined;
  let closed = false;

  function start(ahead: boolean): Worker {
    const child = launch(fileURLToPath(workerUrl), ahead ? [AHEAD_ARG] : []);
    let readyNow = () => {};
    const worker: Worker = { child, uses: 0, ended: false, stderr: '', ready: ahead ? new Promise<void>((resolve) => (readyNow = resolve)) : Promise.resolve() };
    const ended = (why: string, error?: Error) => {
      worker.ended = true;
      readyNow();
      if (spare === worker) takeSpare();
      if (error) worker.reading?.error(error);
      else worker.reading?.exit(why);
    };
    child.onMessage((message) => {
      if (isReadyWord(message)) readyNow();
      else worker.reading?.answer(message as Answer);
    });
    child.onExit((why) => ended(why));
    child.onError((error) => ended(error.message, error));
    child.onStderr((text) => (worker.stderr = (worker.stderr + text).slice(-2_000)));
    return worker;
  }

  function takeSpare(): Worker | undefined {
    const taken = spare;
    spare = undefined;
    if (!taken || taken.ended) return undefined;
    clearTimeout(taken.timer);
    return taken;
  }

  /** The spare now, ended when it has waited `spareKeptMs` (its memory given back). */
  function keep(worker: Worker): void {
    spare = worker;
    worker.timer = setTimeout(() => takeSpare() === worker && worker.child.kill(), spareKeptMs);
    worker.timer.unref();
  }

  function prepare(): Promise<void> {
    if (closed) return Promise.resolve();
    if (spare && !spare.ended) return spare.ready;
    let worker: Worker;
    try {
      worker = start(true);
    } catch (error) {
      log.warn('the import process did not start ahead', { error: String(error) });
      return Promise.resolve();
    }
    keep(worker);
    return worker.ready;
  }

  /** After an answer: kept for the next description, unless it has read its share, holds too much, or one waits already. */
  function done(worker: Worker, rss: number | undefined): void {
    worker.reading = undefined;
    const keepIt = !closed && !worker.ended && !spare && worker.uses < usesPerProcess && (rss ?? Infinity) < keepBelowRssBytes;
    if (keepIt) keep(worker);
    else worker.child.kill();
  }

  function convert(request: ConvertRequest): Promise<ConvertedApi> {
    return new Promise<ConvertedApi>((resolve, reject) => {
      let worker: Worker;
      try {
        worker = takeSpare() ?? start(false);
      } catch (error) {
        log.warn('the import process did not start; converting in the core', { error: String(error) });
        convertDescription(request).then(resolve, reject);
        return;
      }
      let settled = false;
      const settle = (outcome: () => void, reusable: false | { rss: number | undefined }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (reusable) done(worker, reusable.rss);
        else {
          worker.reading = undefined;
          worker.child.kill();
        }
        outcome();
      };
      const timer = setTimeout(() => {
        settle(() => reject(new ToolbeltError('import_invalid', `The description took more than ${readTimeoutMs / 1000} s to read; it was given up on. Try again; if it takes as long, import it from a file (a slow address is often the cause) or a part of it.`)), false);
      }, readTimeoutMs);
      worker.reading = {
        answer: (answer) =>
          settle(() => (answer.ok ? resolve(answer.converted) : reject(new ToolbeltError(answer.error.code, answer.error.message, answer.error.details))), { rss: answer.rss }),
        error: (error) => {
          log.warn('the import process failed; converting in the core', { error: String(error) });
          settle(() => {
            convertDescription(request).then(resolve, reject);
          }, false);
        },
        // A ToolbeltError, so the person reads why (a plain Error crosses to the window only as "internal").
        exit: (why) =>
          settle(
            () => reject(new ToolbeltError('import_invalid', `The description could not be read: the process reading it ended (${why}) before it answered. ${worker.stderr.trim()}`.trim())),
            false,
          ),
      };
      worker.uses += 1;
      worker.child.send(request);
    });
  }

  return {
    convert,
    prepare,
    close() {
      closed = true;
      takeSpare()?.child.kill();
    },
  };
}
