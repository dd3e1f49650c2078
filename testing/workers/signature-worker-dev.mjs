// The signature reader's worker from its TypeScript source, for tests and tsx runs: the build has its own
// (out/main/signature-worker.js).
import { register } from 'tsx/esm/api';

register();
await import('../../main/script-sandbox/signature-worker.ts');
