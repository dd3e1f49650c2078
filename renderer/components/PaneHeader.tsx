import type { ReactNode } from 'react';

/** The top of a list pane: its heading (which names the pane), an action beside it, and what goes under. */
export function PaneHeader({ titleId, title, action, stack, children }: { titleId: string; title: string; action?: ReactNode; stack?: boolean; children?: ReactNode }) {
  return (
    <div className={stack ? 'pane__header pane__header--stack' : 'pane__header'}>
      <div className="pane__title-row">
        <h2 id={titleId} className="pane__title">
          {title}
        </h2>
        {action}
      </div>
      {children}
    </div>
  );
}
