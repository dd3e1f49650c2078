import { workerUrl } from '../common/worker-location.js';

/** The script sandbox's worker (QuickJS); where it is: common/worker-location.ts. */
export const sandboxWorkerUrl = (from: string = import.meta.url): URL => workerUrl('sandbox-worker', from);

/** The worker that reads scripts' signatures with the TypeScript compiler. */
export const signatureWorkerUrl = (from: string = import.meta.url): URL => workerUrl('signature-worker', from);
