// The import process from its TypeScript source, for tests and tsx runs: the build has its own
// (out/main/import-worker.js).
import { register } from 'tsx/esm/api';

register();
await import('../../main/imports/import-worker.ts');
