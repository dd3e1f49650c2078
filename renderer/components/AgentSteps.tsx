import type { AgentStep } from '../../shared/schemas/agent-step.js';

function StepList({ steps }: { steps: AgentStep[] }) {
  return (
    <ol className="agent-steps">
      {steps.map((step, index) => (
        <li key={index} className={`agent-steps__step${step.kind === 'call' && step.ok === false ? ' agent-steps__step--failed' : ''}`}>
          <span className="muted">Turn {step.turn} · </span>
          {step.kind === 'text' ? (
            <span className="agent-steps__text">{step.text}</span>
          ) : (
            <>
              <strong>{step.tool ?? step.name}</strong> <code>{JSON.stringify(step.args ?? {})}</code>{' '}
              <span className={step.ok ? 'ok-text' : 'bad-text'}>{step.ok ? 'done' : 'failed'}</span>
              {step.durationMs !== undefined ? <span className="muted"> · {Math.round(step.durationMs)} ms</span> : null}
              {step.summary ? <div className="agent-steps__summary">{step.summary}</div> : null}
              {Array.isArray(step.steps) && step.steps.length ? <StepList steps={step.steps as AgentStep[]} /> : null}
            </>
          )}
        </li>
      ))}
    </ol>
  );
}

/** What an agent tool's model said and called on the way to its answer, folded until opened. */
export function AgentSteps({ steps }: { steps: AgentStep[] }) {
  return (
    <details className="tool-card__section">
      <summary>
        What the agent did <span className="muted">· {steps.length} step{steps.length === 1 ? '' : 's'}</span>
      </summary>
      <StepList steps={steps} />
    </details>
  );
}
