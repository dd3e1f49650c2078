import type { ReactNode } from 'react';

/** Title row of a screen. The heading takes focus when the screen opens by shortcut. */
export function ScreenHeader({
  id,
  title,
  subtitle,
  actions,
}: {
  id: string;
  title: string;
  subtitle?: string;
  actions?: ReactNode;
}) {
  return (
    <header className="screen-header">
      <div>
        <h1 id={id} className="screen-header__title" tabIndex={-1} data-screen-heading>
          {title}
        </h1>
        {subtitle ? <p className="screen-header__subtitle">{subtitle}</p> : null}
      </div>
      {actions ? <div className="screen-header__actions">{actions}</div> : null}
    </header>
  );
}
