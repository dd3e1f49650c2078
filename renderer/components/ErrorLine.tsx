import { ToolbeltError, type ValidationIssue } from '../../shared/errors.js';
import { i18n } from '../i18n/index.js';
import { describeForPeople } from './issue-text.js';

/** The field-by-field problems a refusal carries (invalid_params, invalid_args), well-formed ones only; [] for anything else. */
export function issuesOf(error: unknown): ValidationIssue[] {
  if (!(error instanceof ToolbeltError)) return [];
  const issues = (error.details as { issues?: unknown } | undefined)?.issues;
  if (!Array.isArray(issues)) return [];
  return issues.filter((issue: unknown): issue is ValidationIssue => {
    const candidate = issue as Partial<ValidationIssue> | null;
    return typeof candidate?.path === 'string' && typeof candidate.message === 'string';
  });
}

/**
 * What to tell the person about a failed call: refused input as a sentence
 * per field, else the core's message, else a fallback that says what to do.
 * The core says it in English with its specifics (names, paths, what to
 * change); in another language its code's meaning comes first, and the
 * core's sentence follows isolated in its own direction (FSI…PDI).
 */
export function errorMessage(error: unknown, fallback?: string): string {
  if (!(error instanceof ToolbeltError)) return fallback ?? i18n.t('common.noAnswer');
  const issues = error.code === 'invalid_params' ? issuesOf(error) : [];
  const detail = issues.length > 0 ? describeForPeople(issues) : error.message;
  if (i18n.resolvedLanguage === 'en') return detail;
  return i18n.t('errors.withDetail', { lead: i18n.t(`errors.${error.code}`), detail: `\u2068${detail}\u2069` });
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
