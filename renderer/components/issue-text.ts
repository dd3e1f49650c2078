import type { ValidationIssue } from '../../shared/errors.js';

/**
 * A problem as a sentence on its own: capital first, full stop last. A
 * message that starts with a value ("localhost:99999 has port…") keeps it
 * as it is.
 */
export function asSentence(message: string): string {
  const trimmed = message.trim();
  if (!trimmed) return trimmed;
  const firstWord = trimmed.split(/\s/, 1)[0]!;
  const capital = /^[a-z]+$/.test(firstWord) ? trimmed[0]!.toUpperCase() + trimmed.slice(1) : trimmed;
  return /[.!?)]$/.test(capital) ? capital : `${capital}.`;
}

function words(segment: string): string {
  const decoded = segment.replaceAll('~1', '/').replaceAll('~0', '~');
  const spaced = decoded.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  const spelled = spaced.replace(/\burl\b/g, 'URL').replace(/\bid\b/g, 'ID').replace(/\bms\b/g, '(ms)');
  return spelled[0]!.toUpperCase() + spelled.slice(1);
}

/** "/impl/urlTemplate" → "URL template", "/allowedHosts/3" → "Allowed hosts (item 4)": the field a pointer ends at, in words. */
export function fieldLabel(pointer: string): string {
  const segments = pointer.split('/').filter(Boolean);
  const last = segments.at(-1);
  if (last === undefined) return 'This';
  if (!/^\d+$/.test(last)) return words(last);
  const item = `item ${Number(last) + 1}`;
  const parent = segments.at(-2);
  return parent === undefined || /^\d+$/.test(parent) ? item[0]!.toUpperCase() + item.slice(1) : `${words(parent)} (${item})`;
}

/** One issue told away from its field: "Name: Use letters, digits and _ only." */
export function issueLine(issue: ValidationIssue): string {
  return `${fieldLabel(issue.path)}: ${asSentence(issue.message)}`;
}

export function describeForPeople(issues: readonly ValidationIssue[]): string {
  return issues.map(issueLine).join(' ');
}
