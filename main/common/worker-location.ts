/**
 * Where one of the core's workers or helper processes is (`sandbox-worker`, `signature-worker`, `import-worker`, `pdf-worker`):
 * beside the built core in out/main/, which the desktop app's build (out/app/) and the bench's (out/bench/)
 * reach as ../main/ (the bench measures the workers as the app ships them); or, when the core itself runs from
 * its TypeScript source (tests), the worker's source run through tsx.
 */
export function workerUrl(name: 'sandbox-worker' | 'signature-worker' | 'import-worker' | 'pdf-worker', from: string): URL {
  if (from.endsWith('.ts')) return new URL(`../../testing/workers/${name}-dev.mjs`, from);
  return new URL(/\/out\/(app|bench)\//.test(from) ? `../main/${name}.js` : `./${name}.js`, from);
}
