import { useTranslation } from 'react-i18next';
import type { ListedHook } from '../../../shared/hooks/hook-list.js';

/** Hooks as a person reads them before they run: when each runs, then what it runs, whole. */
export function HookList({ hooks }: { hooks: readonly (Pick<ListedHook, 'matcher' | 'runs'> & { event: string })[] }) {
  const { t } = useTranslation();
  return (
    <ul className="hook-list">
      {hooks.map((hook, index) => (
        <li key={index}>
          <span className="hook-list__when">{hook.matcher ? t('bundleHooks.when', { event: hook.event, matcher: hook.matcher }) : hook.event}</span>
          <code className="hook-list__runs" dir="ltr" translate="no">
            {hook.runs}
          </code>
        </li>
      ))}
    </ul>
  );
}
