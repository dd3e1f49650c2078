// The import process as Electron's utility process runs it, for tests: `process.parentPort` (there in a
// utility process, never in Node) made over Node's IPC, then the worker from source. It answers and waits
// to be ended, as it does in the desktop app.
import { register } from 'tsx/esm/api';

const send = process.send.bind(process);
// As there: no process.send, so only the parentPort way can answer.
process.send = undefined;
process.parentPort = {
  on: (event, listener) => process.on(event, (data) => listener({ data })),
  postMessage: (message) => send(message),
};
register();
await import('../../main/imports/import-worker.ts');
