import type { ValidationIssue } from '../../shared/errors.js';

/** A problem as a sentence on its own: capital first, full stop last. */
export function asSentence(message: string): string {
  const trimmed = message.trim();
  if (!trimmed) return trimmed;
  const capital = trimmed[0]!.toUpperCase() + trimmed.slice(1);
  return /[.!?)]$/.test(capital) ? capital : `${capital}.`;
}

/** "/impl/urlTemplate" → "URL template": the field a pointer ends at, in words. */
export function fieldLabel(pointer: string): string {
  const last = pointer.split('/').filter(Boolean).at(-1);
  if (last === undefined) return 'This';
  const decoded = last.replaceAll('~1', '/').replaceAll('~0', '~');
  if (/^\d+$/.test(decoded)) return `Item ${Number(decoded) + 1}`;
  const words = decoded.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  const spelled = words.replace(/\burl\b/g, 'URL').replace(/\bid\b/g, 'ID').replace(/\bms\b/g, '(ms)');
  return spelled[0]!.toUpperCase() + spelled.slice(1);
}

/** One issue told away from its field: "Name: Use letters, digits and _ only." */
export function issueLine(issue: ValidationIssue): string {
  return `${fieldLabel(issue.path)}: ${asSentence(issue.message)}`;
}

export function describeForPeople(issues: readonly ValidationIssue[]): string {
  return issues.map(issueLine).join(' ');
}
