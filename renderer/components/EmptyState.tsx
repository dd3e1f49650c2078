import type { ReactNode } from 'react';

interface EmptyStateProps {
  icon: ReactNode;
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}

/** What a screen shows before it has anything: what it is for and the first step. */
export function EmptyState({ icon, title, children, actions }: EmptyStateProps) {
  return (
    <div className="empty-state">
      <div className="empty-state__icon">{icon}</div>
      <h2 className="empty-state__title">{title}</h2>
      <div className="empty-state__body">{children}</div>
      {actions ? <div className="empty-state__actions">{actions}</div> : null}
    </div>
  );
}
