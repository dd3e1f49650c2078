import type { Logger } from '../log.js';

/**
 * A host keeps serving after a stray rejection or exception: by default
 * Node ends the process, and with it every chat, tool call and window. The
 * error is logged with its stack so the bug can still be found and fixed.
 * Returns a function that removes the handlers (tests).
 */
export function installProcessGuards(log: Logger, target: NodeJS.Process = process): () => void {
  const onRejection = (reason: unknown) => {
    log.error('unhandled promise rejection; the app keeps running', { error: describe(reason) });
  };
  const onException = (error: Error) => {
    log.error('uncaught exception; the app keeps running', { error: describe(error) });
  };
  target.on('unhandledRejection', onRejection);
  target.on('uncaughtException', onException);
  return () => {
    target.off('unhandledRejection', onRejection);
    target.off('uncaughtException', onException);
  };
}

function describe(value: unknown): string {
  return value instanceof Error ? (value.stack ?? `${value.name}: ${value.message}`) : String(value);
}
