import type { ReactNode } from 'react';

/**
 * One tool in a list that a text box drives ("+" quick runs, a recipe's step
 * search): the box keeps focus and says which is active; the mouse picks one
 * without taking the focus away. What follows the name is the caller's.
 */
export function ToolOption({ id, active, name, onChoose, children }: { id: string; active: boolean; name: string; onChoose: () => void; children?: ReactNode }) {
  return (
    <li
      id={id}
      role="option"
      aria-selected={active}
      className={`palette__option${active ? ' palette__option--active' : ''}`}
      onMouseDown={(event) => {
        event.preventDefault();
        onChoose();
      }}
    >
      <span className="palette__name">{name}</span>
      {children}
    </li>
  );
}
