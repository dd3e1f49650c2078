import { useTranslation } from 'react-i18next';
import type { HookRun } from '../../shared/schemas/hooks.js';

/** The hooks that ran around a call (the card, the tester): what each decided, folded, open when one stopped the call. */
export function HookRuns({ runs }: { runs: HookRun[] }) {
  const { t } = useTranslation();
  const stopped = runs.some((run) => run.decision === 'deny' || run.decision === 'block' || run.decision === 'error');
  return (
    <details className="tool-card__section" open={stopped}>
      <summary>{t('hooks.runs')}</summary>
      <ol className="agent-steps">
        {runs.map((run, index) => (
          <li key={index} className={`agent-steps__step${run.decision === 'deny' || run.decision === 'block' || run.decision === 'error' ? ' agent-steps__step--failed' : ''}`}>
            <span className="muted">{t('hooks.run', { event: run.event, decision: run.decision, duration: Math.round(run.durationMs) })}</span>{' '}
            <code dir="ltr">{run.handler}</code>
            {run.message ? <div className="agent-steps__summary">{run.message}</div> : null}
          </li>
        ))}
      </ol>
    </details>
  );
}
