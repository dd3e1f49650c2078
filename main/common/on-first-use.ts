/**
 * What `load` gives, made the first time it is asked for and kept. The
 * providers' SDKs and the API description parser are loaded this way: loaded
 * at start they were ~60 MB of a host that may never call a model or import
 * an API in a session (a failed load stays failed: a module that is missing
 * does not appear on a second try).
 */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}
