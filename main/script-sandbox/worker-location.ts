/**
 * Where a worker of the core is: beside the built core (out/main/, which the
 * desktop app's build in out/app/ reaches as ../main/), or its TypeScript
 * source run through tsx when the core itself runs from source (tests).
 */
function workerUrl(name: 'sandbox-worker' | 'signature-worker', from: string): URL {
  if (from.endsWith('.ts')) return new URL(`../../testing/workers/${name}-dev.mjs`, from);
  return new URL(from.includes('/out/app/') ? `../main/${name}.js` : `./${name}.js`, from);
}

/** The script sandbox's worker (QuickJS). */
export const sandboxWorkerUrl = (from: string = import.meta.url): URL => workerUrl('sandbox-worker', from);

/** The worker that reads scripts' signatures with the TypeScript compiler. */
export const signatureWorkerUrl = (from: string = import.meta.url): URL => workerUrl('signature-worker', from);
