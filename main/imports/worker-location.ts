/**
 * Where the import process's entry is: beside the built core (out/main/,
 * which the desktop app's build in out/app/ reaches as ../main/), or its
 * TypeScript source run through tsx when the core runs from source (tests).
 */
export function importWorkerUrl(from: string = import.meta.url): URL {
  if (from.endsWith('.ts')) return new URL('../../testing/workers/import-worker-dev.mjs', from);
  return new URL(from.includes('/out/app/') ? '../main/import-worker.js' : './import-worker.js', from);
}
