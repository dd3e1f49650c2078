import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RecipeCondition, RecipeStep } from '../../../../../shared/schemas/recipe-impl.js';
import type { ToolView } from '../../../../../shared/schemas/tool.js';
import { ArrowDownIcon, TrashIcon } from '../../../../components/icons.js';
import { Problems } from '../EditorFields.js';
import { StepToolSearch } from './StepToolSearch.js';
import type { ValueSource } from './sources.js';
import { ValueField } from './ValueField.js';

const TESTS: RecipeCondition['is'][] = ['present', 'absent', 'true', 'false', 'equal', 'not-equal', 'greater', 'less', 'contains'];
const COMPARES = new Set<RecipeCondition['is']>(['equal', 'not-equal', 'greater', 'less', 'contains']);
const STEP_ID = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

type Schema = { type?: unknown; description?: unknown };

export interface StepCardProps {
  step: RecipeStep;
  index: number;
  count: number;
  /** The tool it calls (undefined while the tools load; null when it is not there). */
  tool: ToolView | null | undefined;
  /** What its arguments can take, and what its condition and for-each can (no item there). */
  sources: ValueSource[];
  outerSources: ValueSource[];
  groupTitle: (group: string) => string;
  /** Problems at a pointer below this step (`/args/lat`) and under it, from the live check and the core's. */
  problemsAt: (pointer: string) => { problems: string[]; warnings: string[] };
  hidden: (tool: ToolView) => boolean;
  onChange: (step: RecipeStep) => void;
  onRename: (to: string) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
  dragging: { onDragStart: () => void; onDrop: () => void };
}

/**
 * One step of a recipe: the tool it calls (found by search), where each of
 * its arguments comes from, and when it runs (a condition, for each item,
 * what to do when it fails). Moved with its buttons, Alt+↑/↓, or by drag.
 */
export function RecipeStepCard({ step, index, count, tool, sources, outerSources, groupTitle, problemsAt, hidden, onChange, onRename, onMove, onRemove, dragging }: StepCardProps) {
  const { t } = useTranslation();
  const id = useId();
  const [changingTool, setChangingTool] = useState(false);
  const [typedId, setTypedId] = useState(step.id);
  const properties = ((tool?.argSchema as { properties?: Record<string, Schema> } | undefined)?.properties ?? {});
  const required = new Set(((tool?.argSchema as { required?: string[] } | undefined)?.required ?? []));
  // Arguments the tool takes, then any the step gives that it no longer takes (so they can be seen and removed).
  const names = [...Object.keys(properties), ...Object.keys(step.args).filter((name) => !(name in properties))];
  const setArg = (name: string, value: unknown) => {
    const args = { ...step.args };
    if (value === undefined) delete args[name];
    else args[name] = value;
    onChange({ ...step, args });
  };
  const title = t('recipe.step.title', { number: index + 1 });
  // Said at the step itself: its tool and its name (its arguments and options say theirs in place).
  const [atTool, atId] = [problemsAt('/tool'), problemsAt('/id')];
  const own = { problems: [...atTool.problems, ...atId.problems], warnings: [...atTool.warnings, ...atId.warnings] };
  const argProblems = (name: string) => problemsAt(`/args/${name}`);
  return (
    <li
      className="recipe-step"
      aria-labelledby={`${id}-title`}
      onDragOver={(event) => event.preventDefault()}
      onDrop={(event) => {
        event.preventDefault();
        dragging.onDrop();
      }}
      onKeyDown={(event) => {
        if (!event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
        event.preventDefault();
        onMove(event.key === 'ArrowUp' ? index - 1 : index + 1);
      }}
    >
      <div className="recipe-step__head">
        <span
          className="recipe-step__handle"
          draggable
          aria-hidden="true"
          title={t('recipe.step.drag')}
          onDragStart={(event) => {
            event.dataTransfer.effectAllowed = 'move';
            event.dataTransfer.setData('text/plain', step.id);
            dragging.onDragStart();
          }}
        />
        <h4 id={`${id}-title`} className="recipe-step__title">
          {title}
          {tool ? <span className="recipe-step__tool"> · {tool.displayName}</span> : null}
        </h4>
        <label className="recipe-step__id">
          <span className="visually-hidden">{t('recipe.step.name', { step: title })}</span>
          <input
            className="input input--code input--small"
            value={typedId}
            spellCheck={false}
            aria-invalid={STEP_ID.test(typedId) ? undefined : true}
            onChange={(event) => {
              setTypedId(event.target.value);
              // A name a reference can use renames the step and its references; anything else waits as typed.
              if (STEP_ID.test(event.target.value)) onRename(event.target.value);
            }}
          />
        </label>
        <button type="button" className="icon-button recipe-step__up" disabled={index === 0} aria-label={t('recipe.step.up', { step: title })} title={t('recipe.step.upHint')} onClick={() => onMove(index - 1)}>
          <ArrowDownIcon />
        </button>
        <button type="button" className="icon-button" disabled={index === count - 1} aria-label={t('recipe.step.down', { step: title })} title={t('recipe.step.downHint')} onClick={() => onMove(index + 1)}>
          <ArrowDownIcon />
        </button>
        <button type="button" className="icon-button" aria-label={t('recipe.step.remove', { step: title })} title={t('recipe.step.remove', { step: title })} onClick={onRemove}>
          <TrashIcon />
        </button>
      </div>
      {STEP_ID.test(typedId) ? null : <p className="field__error">{t('recipe.step.badName')}</p>}

      {changingTool ? (
        <StepToolSearch
          label={t('recipe.step.pickTool')}
          hidden={hidden}
          autoFocus
          onCancel={() => setChangingTool(false)}
          onPick={(picked) => {
            onChange({ ...step, tool: { bundleID: picked.bundleID, slug: picked.slug } });
            setChangingTool(false);
          }}
        />
      ) : (
        <p className="recipe-step__calls">
          {tool === undefined ? t('recipe.step.loading') : tool === null ? <span className="bad-text">{t('recipe.step.gone', { slug: step.tool.slug })}</span> : t('recipe.step.calls', { tool: tool.displayName, slug: tool.slug, version: step.tool.version ?? t('recipe.step.latest') })}{' '}
          <button type="button" className="button button--small" onClick={() => setChangingTool(true)}>
            {t('recipe.step.changeTool')}
          </button>
        </p>
      )}
      <Problems id={`${id}-problems`} problems={own.problems} warnings={own.warnings} />

      {names.length ? (
        <div className="recipe-step__args">
          {names.map((name) => {
            const schema = properties[name];
            const type = typeof schema?.type === 'string' ? schema.type : undefined;
            const said = argProblems(name);
            return (
              <ValueField
                key={name}
                label={name}
                detail={[type, required.has(name) ? t('recipe.step.required') : null, schema ? null : t('recipe.step.notTaken')].filter(Boolean).join(' · ')}
                type={type}
                value={step.args[name]}
                sources={sources}
                groupTitle={groupTitle}
                problems={said.problems}
                warnings={said.warnings}
                onChange={(value) => setArg(name, value)}
              />
            );
          })}
        </div>
      ) : tool ? (
        <p className="muted">{t('recipe.step.noArgs')}</p>
      ) : null}

      <details className="recipe-step__more" open={Boolean(step.when || step.forEach || step.onFailure)}>
        <summary>{t('recipe.step.more')}</summary>
        <div className="recipe-step__options">
        <label className="checkbox">
          <input type="checkbox" checked={step.when !== undefined} onChange={(event) => onChange(withOptional(step, 'when', event.target.checked ? { value: '', is: 'present' } : undefined))} />
          {t('recipe.step.onlyWhen')}
        </label>
        {step.when ? (
          <div className="recipe-step__condition">
            <ValueField label={t('recipe.step.conditionValue')} value={step.when.value} sources={outerSources} groupTitle={groupTitle} optional={false} problems={problemsAt('/when/value').problems} onChange={(value) => onChange({ ...step, when: { ...step.when!, value: typeof value === 'string' ? value : JSON.stringify(value ?? '') } })} />
            <label className="recipe-step__test">
              <span className="field__label">{t('recipe.step.test')}</span>
              <select className="input" value={step.when.is} onChange={(event) => onChange({ ...step, when: conditionWith(step.when!, event.target.value as RecipeCondition['is']) })}>
                {TESTS.map((test) => (
                  <option key={test} value={test}>
                    {t(`recipe.tests.${test}`)}
                  </option>
                ))}
              </select>
            </label>
            {COMPARES.has(step.when.is) ? (
              <ValueField label={t('recipe.step.compareWith')} value={step.when.to} sources={outerSources} groupTitle={groupTitle} problems={problemsAt('/when/to').problems} onChange={(value) => onChange({ ...step, when: { ...step.when!, to: value } })} />
            ) : null}
          </div>
        ) : null}
        <label className="checkbox">
          <input type="checkbox" checked={step.forEach !== undefined} onChange={(event) => onChange(withOptional(step, 'forEach', event.target.checked ? '' : undefined))} />
          {t('recipe.step.forEach')}
        </label>
        {step.forEach !== undefined ? (
          <ValueField
            label={t('recipe.step.forEachList')}
            value={step.forEach}
            sources={outerSources.filter((source) => source.type === undefined || source.type === 'array')}
            groupTitle={groupTitle}
            optional={false}
            problems={problemsAt('/forEach').problems}
            onChange={(value) => onChange({ ...step, forEach: typeof value === 'string' ? value : '' })}
          />
        ) : null}
        <label className="recipe-step__failure">
          <span className="field__label">{t('recipe.step.whenFails')}</span>
          <select
            className="input"
            value={step.onFailure?.do ?? 'stop'}
            onChange={(event) => {
              const chosen = event.target.value;
              onChange(withOptional(step, 'onFailure', chosen === 'retry' ? { do: 'retry', times: 2 } : chosen === 'fallback' ? { do: 'fallback', value: null } : undefined));
            }}
          >
            <option value="stop">{t('recipe.step.stop')}</option>
            <option value="retry">{t('recipe.step.retry')}</option>
            <option value="fallback">{t('recipe.step.fallback')}</option>
          </select>
        </label>
        {step.onFailure?.do === 'retry' ? (
          <label className="recipe-step__failure">
            <span className="field__label">{t('recipe.step.times')}</span>
            <input className="input input--narrow" type="number" min={1} max={5} value={step.onFailure.times} onChange={(event) => onChange({ ...step, onFailure: { do: 'retry', times: Math.min(5, Math.max(1, Math.round(Number(event.target.value) || 1))) } })} />
          </label>
        ) : step.onFailure?.do === 'fallback' ? (
          <ValueField label={t('recipe.step.fallbackValue')} value={step.onFailure.value} sources={outerSources} groupTitle={groupTitle} onChange={(value) => onChange({ ...step, onFailure: { do: 'fallback', value: value ?? null } })} />
        ) : null}
        </div>
      </details>
    </li>
  );
}

/** The step with an optional field set, or removed when `value` is undefined. */
function withOptional<K extends 'when' | 'forEach' | 'onFailure'>(step: RecipeStep, key: K, value: RecipeStep[K] | undefined): RecipeStep {
  const copy = { ...step };
  if (value === undefined) delete copy[key];
  else copy[key] = value;
  return copy;
}

/** A condition with another test: one that compares keeps what it compared with; one that does not drops it. */
function conditionWith(condition: RecipeCondition, is: RecipeCondition['is']): RecipeCondition {
  const { to, ...rest } = condition;
  return COMPARES.has(is) ? { ...rest, is, to: to ?? '' } : { ...rest, is };
}
