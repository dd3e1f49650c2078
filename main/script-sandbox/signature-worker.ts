import { parentPort } from 'node:worker_threads';
import { readScript } from './signature.js';
import type { SignatureReply, SignatureRequest } from './signature-reader.js';

/**
 * The thread scripts are read on (the TypeScript compiler: parse, transpile,
 * schema from the signature), so a script built to be slow to read costs
 * this thread, which the core ends past its time budget, never the core's.
 * The compiler is loaded before it says it is ready: its load (about a
 * second) is not counted against a read.
 */
const port = parentPort!;
await readScript('export default function ready() {}', 'typescript');
port.on('message', (request: SignatureRequest) => {
  readScript(request.source, request.language).then(
    (read) => port.postMessage({ id: request.id, ok: true, read } satisfies SignatureReply),
    (error: unknown) => port.postMessage({ id: request.id, ok: false, message: error instanceof Error ? error.message : String(error) } satisfies SignatureReply),
  );
});
port.postMessage({ ready: true });
