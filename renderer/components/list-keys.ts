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
