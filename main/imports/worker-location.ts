import { workerUrl } from '../common/worker-location.js';

/** Where the import process's entry is (see common/worker-location.ts). */
export const importWorkerUrl = (from: string = import.meta.url): URL => workerUrl('import-worker', from);
