import { useTranslation } from 'react-i18next';
import type { AgentStep } from '../../shared/schemas/agent-step.js';

function StepList({ steps }: { steps: AgentStep[] }) {
  const { t } = useTranslation();
  return (
    <ol className="agent-steps">
      {steps.map((step, index) => (
        <li key={index} className={`agent-steps__step${step.kind === 'call' && step.ok === false ? ' agent-steps__step--failed' : ''}`}>
          <span className="muted">{step.stepId ? t('agentSteps.recipeStep', { number: step.turn, id: step.stepId }) : t('agentSteps.turn', { turn: step.turn })}</span>
          {step.kind === 'text' ? (
            <span className="agent-steps__text">{step.text}</span>
          ) : step.skipped !== undefined ? (
            <span className="muted">{t('agentSteps.skipped', { why: step.skipped })}</span>
          ) : (
            <>
              {/* A recipe's step taken from the last run has no arguments of this run to show. */}
              <strong>{step.tool ?? step.name}</strong> {step.args || !step.reused ? <code>{JSON.stringify(step.args ?? {})}</code> : null}{' '}
              <span className={step.ok ? 'ok-text' : 'bad-text'}>{step.ok ? t('agentSteps.done') : t('agentSteps.failed')}</span>
              {step.runs !== undefined ? <span className="muted">{` · ${t('agentSteps.runs', { count: step.runs })}`}</span> : null}
              {step.reused ? <span className="badge badge--quiet">{t('agentSteps.reused')}</span> : null}
              {step.durationMs !== undefined ? <span className="muted">{` · ${t('common.milliseconds', { value: Math.round(step.durationMs) })}`}</span> : null}
              {step.summary ? <div className="agent-steps__summary">{step.summary}</div> : null}
              {Array.isArray(step.steps) && step.steps.length ? <StepList steps={step.steps as AgentStep[]} /> : null}
            </>
          )}
        </li>
      ))}
    </ol>
  );
}

/**
 * What an agent tool's model said and called on the way to its answer, or a
 * recipe's steps (open at once when one failed, or when `open`: the tester
 * shows a trial run's steps), folded until opened.
 */
export function AgentSteps({ steps, open = false }: { steps: AgentStep[]; open?: boolean }) {
  const { t } = useTranslation();
  return (
    <details className="tool-card__section" open={open || steps.some((step) => step.stepId !== undefined && step.ok === false)}>
      <summary>
        {steps.some((step) => step.stepId !== undefined) ? t('agentSteps.recipeTitle') : t('agentSteps.title')} <span className="muted">{t('agentSteps.steps', { count: steps.length })}</span>
      </summary>
      <StepList steps={steps} />
    </details>
  );
}
