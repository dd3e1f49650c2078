import { useRef, type KeyboardEvent } from 'react';

/**
 * Where an arrow key moves focus in a vertical list of `count` items (Down/Up wrap around, Home/End jump), or null
 * for a key the list leaves alone.
 */
export function listKeyTarget(key: string, index: number, count: number): number | null {
  const last = count - 1;
  if (key === 'ArrowDown') return index === last ? 0 : index + 1;
  if (key === 'ArrowUp') return index === 0 ? last : index - 1;
  if (key === 'Home') return 0;
  if (key === 'End') return last;
  return null;
}

/** Arrow keys, Home and End between the buttons of a vertical list: their refs, and the key handler each one takes. */
export function useListFocus(count: number) {
  const items = useRef<(HTMLButtonElement | null)[]>([]);
  return {
    itemRef: (index: number) => (element: HTMLButtonElement | null) => {
      items.current[index] = element;
    },
    onKeyDown: (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
      const target = listKeyTarget(event.key, index, count);
      if (target === null) return;
      event.preventDefault();
      items.current[target]?.focus();
    },
  };
}
