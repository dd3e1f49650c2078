import { startTransition, useEffect, useRef, useState, type RefObject } from 'react';

/** How far outside the scrolled area something counts as near: it is drawn before a reader scrolls to it. */
const NEAR_MARGIN_PX = 1000;

/** Marks the scrolling element whose children may wait until they are near its visible area. */
export const NEAR_VIEW_ROOT = 'data-near-view-root';

type Wake = () => void;
const observers = new Map<Element | null, { observer: IntersectionObserver; waiting: Map<Element, Wake> }>();

function observerFor(root: Element | null) {
  let entry = observers.get(root);
  if (!entry) {
    const waiting = new Map<Element, Wake>();
    const observer = new IntersectionObserver(
      (changes) => {
        for (const change of changes) if (change.isIntersecting) waiting.get(change.target)?.();
      },
      { root, rootMargin: `${NEAR_MARGIN_PX}px 0px` },
    );
    entry = { observer, waiting };
    observers.set(root, entry);
  }
  return entry;
}

/**
 * Whether the element is (or has once been) near the visible part of the
 * scrolling element it sits in, or true from the start when `eager` (what
 * the caller knows will be in view). Coming near is drawn as a transition,
 * in slices between which the page stays responsive. One observer serves
 * every element of a scrolling element.
 */
export function useNearView<T extends Element>(eager: boolean): [RefObject<T | null>, boolean] {
  const ref = useRef<T>(null);
  const [near, setNear] = useState(eager);
  // Once drawn, it stays drawn: a block that leaves the eager tail of a growing answer keeps its Markdown.
  if (eager && !near) setNear(true);
  const shown = near || eager;
  useEffect(() => {
    const element = ref.current;
    if (shown || !element) return;
    const root = element.closest(`[${NEAR_VIEW_ROOT}]`);
    const { observer, waiting } = observerFor(root);
    waiting.set(element, () => startTransition(() => setNear(true)));
    observer.observe(element);
    return () => {
      waiting.delete(element);
      observer.unobserve(element);
      // A scrolling element that is gone takes its observer with it.
      if (waiting.size === 0) {
        observer.disconnect();
        observers.delete(root);
      }
    };
  }, [shown]);
  return [ref, shown];
}
