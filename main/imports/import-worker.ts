// The process an API description is converted in (built as out/main/import-worker.js): parsing, dereferencing
// and converting GitHub's description makes hundreds of MB of short-lived garbage, which this process takes and
// gives back to the system when it ends, instead of the core's. One request at a time, each answered with what the
// process holds then (the core keeps it for the next one only while that is small); the core ends it.
import { ToolbeltError } from '../../shared/errors.js';
import { convertDescription, type ConvertRequest } from './convert-description.js';
import { AHEAD_ARG } from './import-process.js';
import { WARM_UP_DESCRIPTION } from './warm-up-description.js';

/** Electron's utility process speaks through `process.parentPort` (the desktop app); Node's fork through `process.send`. */
interface ParentPort {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}
const parentPort = (process as { parentPort?: ParentPort }).parentPort;

/**
 * Rounds of the warm-up. The first loads the parser and compiles the store's checks; the later ones let V8 optimise
 * the converter's functions (one small round left Stripe's reading at 0.78–0.87 s, against 0.5–0.63 s after a
 * large one). Cheap: a few hundred ms of a process no one waits on yet.
 */
const WARM_UP_ROUNDS = 8;

/** The core ends this process when a description takes it too long (convert-elsewhere.ts): no clock is kept here. */
const IN_ITS_OWN_PROCESS = { timedElsewhere: true };

/** Each answer says what the process holds once it is made: the core keeps a process for the next only while that is small. */
function convert(request: ConvertRequest, send: (message: unknown) => void): void {
  const answer = (message: object) => send({ ...message, rss: process.memoryUsage.rss() });
  convertDescription(request, IN_ITS_OWN_PROCESS).then(
    (converted) => answer({ ok: true, converted }),
    (error: unknown) =>
      answer({
        ok: false,
        error:
          error instanceof ToolbeltError
            ? { code: error.code, message: error.message, ...(error.details !== undefined ? { details: error.details } : {}) }
            : { code: 'internal', message: error instanceof Error ? error.message : String(error) },
      }),
  );
}

/** A description came: the warm-up stops, so it does not take the cores from it. */
let asked = false;

function tellReady(): void {
  if (parentPort) parentPort.postMessage({ ready: true });
  else if (process.connected) process.send!({ ready: true });
}

if (parentPort) {
  parentPort.on('message', (event) => {
    asked = true;
    convert(event.data as ConvertRequest, (message) => parentPort.postMessage(message));
  });
} else {
  process.on('message', (request: ConvertRequest) => {
    asked = true;
    convert(request, (message) => process.connected && process.send!(message));
  });
  // The core that started it is gone: nobody will ask again.
  process.once('disconnect', () => process.exit(0));
}

// A process started ahead (DescriptionConverter.prepare, told by AHEAD_ARG) reads a small description a few times
// while no one waits, then says so (`{ ready: true }`, never an answer): it then reads the person's at the speed of
// one that has read before. A failure here is only a slower first read. One started for a description already sent
// does not warm up: it reads that one at once.
if (process.argv.includes(AHEAD_ARG)) warmUp().then(tellReady, tellReady);

async function warmUp(): Promise<void> {
  for (let round = 0; round < WARM_UP_ROUNDS && !asked; round++) await convertDescription({ source: { text: WARM_UP_DESCRIPTION }, allowedHosts: [] }, IN_ITS_OWN_PROCESS);
}
