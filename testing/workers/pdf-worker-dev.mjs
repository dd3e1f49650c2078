// The thread a PDF's text is read on, from its TypeScript source, for tests and tsx runs: the build has its own
// (out/main/pdf-worker.js).
import { register } from 'tsx/esm/api';

register();
await import('../../main/chat/pdf-worker.ts');
