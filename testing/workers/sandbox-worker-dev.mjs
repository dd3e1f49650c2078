// The script sandbox's worker from its TypeScript source, for tests and tsx runs: the build has its own
// (out/main/sandbox-worker.js).
import { register } from 'tsx/esm/api';

register();
await import('../../main/script-sandbox/sandbox-worker.ts');
