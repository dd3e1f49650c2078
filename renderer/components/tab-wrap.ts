import type { KeyboardEvent } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"]), [contenteditable="true"]';

/** What Tab can reach inside `container`, in order: shown, enabled, not taken out of the order. */
function tabbable(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => element.tabIndex >= 0 && element.getClientRects().length > 0 && !element.closest('[inert]'));
}

/**
 * Keeps Tab inside a dialog: from its last control to its first, and Shift+Tab
 * back. A modal <dialog> makes the page behind inert, but Tab past its end still
 * leaves it (to the browser, or the page's body). A Tab a code editor kept for
 * itself (typing a tab) is left alone.
 */
export function wrapTab(event: KeyboardEvent<HTMLElement>): void {
  if (event.key !== 'Tab' || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  const items = tabbable(event.currentTarget);
  const first = items[0];
  const last = items.at(-1);
  if (!first || !last) return;
  const active = document.activeElement;
  const inside = active !== null && event.currentTarget.contains(active);
  const atEdge = event.shiftKey ? !inside || first === active || first.contains(active) : !inside || last === active || last.contains(active);
  if (!atEdge) return;
  event.preventDefault();
  (event.shiftKey ? last : first).focus();
}
