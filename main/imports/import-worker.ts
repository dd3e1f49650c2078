// The process an API description is converted in (built as out/main/import-worker.js): parsing, dereferencing
// and converting GitHub's description makes hundreds of MB of short-lived garbage, which this process takes and
// gives back to the system when it ends, instead of the core's. One request, one answer, then it exits.
import { ToolbeltError } from '../../shared/errors.js';
import { convertDescription, type ConvertRequest } from './convert-description.js';

process.once('message', (request: ConvertRequest) => {
  convertDescription(request).then(
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
});

function answer(message: unknown): void {
  process.send!(message, () => process.exit(0));
}
