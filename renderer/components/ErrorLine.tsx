import { ToolbeltError } from '../../shared/errors.js';

/** What to tell the person about a failed call: the core's message, else a fallback that says what to do. */
export function errorMessage(error: unknown, fallback = 'The app did not answer; try again.'): string {
  return error instanceof ToolbeltError ? error.message : fallback;
}

/** A problem shown where it happened, announced to screen readers. Nothing when there is none. */
export function ErrorLine({ message, className = '' }: { message: string | null | undefined; className?: string }) {
  if (!message) return null;
  return (
    <p className={`field__error ${className}`.trim()} role="alert">
      {message}
    </p>
  );
}
