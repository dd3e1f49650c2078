import { useId, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Hooks } from '../../../shared/schemas/hooks.js';
import { TOOL_HOOK_EVENTS } from '../../../shared/schemas/hooks.js';
import type { ToolView } from '../../../shared/schemas/tool.js';
import { useApi } from '../../api/context.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { HookRuns } from '../../components/HookRuns.js';
import { useToolPages } from '../../queries/tools.js';

type Event = (typeof TOOL_HOOK_EVENTS)[number];
const MATCHES_SHOWN = 20;

/** JSON the person typed, or the sentence saying why it is not. */
function parsed(text: string, fallback: unknown): { value: unknown } | { problem: string } {
  if (!text.trim()) return { value: fallback };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

/**
 * Settings → Hooks → "Try it": the hooks as typed (saved or not) run on a sample call of one of the person's tools;
 * the tool never runs. Shows each run and what the call would have become, so a hook is trusted after it was seen.
 */
export function HookTrial({ draft }: { draft: () => Hooks | { problem: string } }) {
  const { t } = useTranslation();
  const api = useApi();
  const id = useId();
  const [event, setEvent] = useState<Event>('PreToolUse');
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState('');
  const [args, setArgs] = useState('{}');
  const [answer, setAnswer] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const found = useToolPages(query, null, false);
  const matches = (found.data?.pages[0]?.tools ?? []).filter((tool): tool is ToolView => tool.status === 'valid').slice(0, MATCHES_SHOWN);
  const tool = matches.find((candidate) => candidate.toolID === chosen) ?? matches[0];
  const trial = useMutation({ mutationFn: (params: Parameters<typeof api.hooks.try>[0]) => api.hooks.try(params), onError: (error) => setProblem(errorMessage(error)) });

  const run = () => {
    setProblem(null);
    const hooks = draft();
    if ('problem' in hooks) return setProblem(t('hooks.invalidJson', { reason: hooks.problem }));
    if (!tool) return setProblem(t('hookTrial.noTool'));
    const sample = parsed(args, {});
    if ('problem' in sample || typeof sample.value !== 'object' || sample.value === null || Array.isArray(sample.value)) return setProblem(t('hookTrial.badArgs'));
    const after = event === 'PostToolUse' ? parsed(answer, null) : { value: undefined };
    if ('problem' in after) return setProblem(t('hookTrial.badAnswer', { reason: after.problem }));
    trial.mutate({
      event,
      bundleID: tool.bundleID,
      toolSlug: tool.slug,
      version: tool.version,
      args: sample.value as Record<string, unknown>,
      hooks,
      ...(event === 'PostToolUse' ? { response: after.value } : {}),
      ...(event === 'PostToolUseFailure' && answer.trim() ? { error: answer.trim() } : {}),
    });
  };
  const result = trial.data;

  return (
    <div className="hook-trial">
      <h3 className="subhead">{t('hookTrial.title')}</h3>
      <p className="muted">{t('hookTrial.hint')}</p>
      <div className="hook-trial__fields">
        {/* Labels beside their selects, not around them: a label around a select takes its options' text into its name. */}
        <div className="field">
          <label className="field__label" htmlFor={`${id}-event`}>
            {t('hookTrial.event')}
          </label>
          {/* Event names are Claude Code's, the same in every language. */}
          <select id={`${id}-event`} className="input" translate="no" value={event} onChange={(change) => setEvent(change.target.value as Event)}>
            {TOOL_HOOK_EVENTS.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </div>
        <label className="field">
          <span className="field__label">{t('hookTrial.find')}</span>
          <input className="input" type="search" value={query} onChange={(change) => setQuery(change.target.value)} aria-controls={`${id}-tool`} />
        </label>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-tool`}>
            {t('hookTrial.tool')}
          </label>
          {/* The person's own tool names. */}
          <select id={`${id}-tool`} className="input" translate="no" value={tool?.toolID ?? ''} onChange={(change) => setChosen(change.target.value)} disabled={matches.length === 0}>
            {matches.length === 0 ? <option value="">{t('hookTrial.noMatches')}</option> : null}
            {matches.map((candidate) => (
              <option key={candidate.toolID} value={candidate.toolID}>
                {`${candidate.displayName} (${candidate.slug} ${candidate.version})`}
              </option>
            ))}
          </select>
        </div>
      </div>
      <label className="field">
        <span className="field__label">{t('hookTrial.args')}</span>
        <textarea className="input input--code" dir="ltr" translate="no" spellCheck={false} rows={3} value={args} onChange={(change) => setArgs(change.target.value)} />
      </label>
      {event !== 'PreToolUse' ? (
        <label className="field">
          <span className="field__label">{event === 'PostToolUse' ? t('hookTrial.answer') : t('hookTrial.error')}</span>
          <textarea className="input input--code" dir="ltr" translate="no" spellCheck={false} rows={3} value={answer} onChange={(change) => setAnswer(change.target.value)} />
        </label>
      ) : null}
      <div className="row">
        {/* Not disabled while it runs: a disabled button drops the keyboard's focus to the page. */}
        <button type="button" className="button" aria-disabled={trial.isPending} onClick={() => (trial.isPending ? undefined : run())}>
          {trial.isPending ? t('hookTrial.trying') : t('hookTrial.try')}
        </button>
      </div>
      <ErrorLine message={problem} />
      {result && !trial.isPending ? (
        <div className={`callout ${result.outcome === 'refused' ? 'callout--bad' : 'callout--note'}`} role="status">
          <p>{result.runs.length === 0 ? t('hookTrial.noRuns') : t(`hookTrial.outcome.${result.outcome}`, { message: result.message ?? '' })}</p>
          {result.updatedInput ? (
            <p>
              {t('hookTrial.updatedInput')} <code dir="ltr">{JSON.stringify(result.updatedInput)}</code>
            </p>
          ) : null}
          {result.context.length ? <p>{t('hookTrial.context', { read: result.context.join(' ') })}</p> : null}
          {result.runs.length ? <HookRuns runs={result.runs} /> : null}
        </div>
      ) : null}
    </div>
  );
}
