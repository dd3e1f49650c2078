/**
 * Where the sandbox's worker is: beside the built core (out/main/, which the
 * desktop app's build in out/app/ reaches as ../main/), or its TypeScript
 * source run through tsx when the core itself runs from source (tests).
 */
export function sandboxWorkerUrl(from: string = import.meta.url): URL {
  if (from.endsWith('.ts')) return new URL('../testing/sandbox-worker-dev.mjs', from);
  return new URL(from.includes('/out/app/') ? '../main/sandbox-worker.js' : './sandbox-worker.js', from);
}
