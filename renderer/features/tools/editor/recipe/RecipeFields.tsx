import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkRecipe, type RecipeProblem, type StepToolInfo } from '../../../../../shared/recipes/check.js';
import type { RecipeImpl, RecipeStep } from '../../../../../shared/schemas/recipe-impl.js';
import type { RecipeRun } from '../../../../../shared/schemas/invocation.js';
import type { ToolView } from '../../../../../shared/schemas/tool.js';
import { TrashIcon } from '../../../../components/icons.js';
import { stepToolOf, useRecipeStepTools } from '../../../../queries/tools.js';
import { getPath, setPath } from '../draft.js';
import type { FieldContext } from '../EditorFields.js';
import { Problems } from '../EditorFields.js';
import { argSchemaFrom, inputsOf, moveStep, newStep, renameInput, renameStep, type InputRow } from './recipe-draft.js';
import { RecipeInputs } from './RecipeInputs.js';
import { RecipeStepCard } from './RecipeStepCard.js';
import { sourcesAt } from './sources.js';
import { StepToolSearch } from './StepToolSearch.js';
import { ValueField } from './ValueField.js';
import './recipe.css';

/** A recipe as the draft holds it, with what a person may have left out filled in. */
function implOf(draft: unknown): RecipeImpl {
  const impl = (getPath(draft, ['impl']) ?? {}) as Partial<RecipeImpl>;
  return { ...impl, steps: Array.isArray(impl.steps) ? impl.steps : [], output: impl.output ?? {} };
}

const infoOf = (tool: ToolView): StepToolInfo => ({
  displayName: tool.displayName,
  argSchema: tool.argSchema,
  ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
  ...(tool.blockedReason ? { blockedReason: tool.blockedReason } : {}),
  ...(tool.requiresApproval ? { requiresApproval: true } : {}),
});

let nextKey = 0;
const freshKey = () => `step-${++nextKey}`;

/**
 * The recipe builder: the inputs the recipe asks for, its steps (each a
 * tool and where its arguments come from, picked from what is there at that
 * point with the values of the last trial run), and its output; what is
 * still missing or does not fit is said at its place as the person edits.
 */
export function RecipeFields({ context, bundleID, slug, lastRun }: { context: FieldContext; bundleID: string; slug: string; lastRun?: RecipeRun }) {
  const { t } = useTranslation();
  const impl = implOf(context.draft);
  const argSchema = (getPath(context.draft, ['argSchema']) ?? {}) as Record<string, unknown>;
  const stepTools = useRecipeStepTools(impl.steps.map((step) => step.tool.bundleID));
  const [adding, setAdding] = useState(impl.steps.length === 0);
  // Each card keeps its key as steps move, so what is typed in one stays with it.
  const [keys, setKeys] = useState<string[]>(() => impl.steps.map(freshKey));
  const stepKeys = keys.length === impl.steps.length ? keys : impl.steps.map((_, index) => keys[index] ?? freshKey());
  const dragged = useRef<number | null>(null);

  const toolOf = (step: RecipeStep): ToolView | null | undefined => (stepTools.data ? (stepToolOf(stepTools.data, step.tool) ?? null) : impl.steps.length ? undefined : null);
  const problems = useMemo(() => {
    const found = checkRecipe(impl, argSchema, (ref) => {
      const tool = stepTools.data ? stepToolOf(stepTools.data, ref) : undefined;
      return tool ? infoOf(tool) : undefined;
    });
    // While the tools load, a step's tool is not yet known: not "missing".
    return stepTools.data ? found : found.filter((problem) => problem.code !== 'recipe_step_tool_missing');
    // eslint-disable-next-line react-hooks/exhaustive-deps -- recomputed when the draft or the tools change
  }, [context.draft, stepTools.data]);

  const write = (next: RecipeImpl, schema: Record<string, unknown> = argSchema) => {
    let draft = setPath(context.draft, ['impl'], next);
    if (schema !== argSchema) draft = setPath(draft, ['argSchema'], schema);
    context.setDraft(draft);
  };
  const setSteps = (steps: RecipeStep[], nextKeys: string[]) => {
    setKeys(nextKeys);
    write({ ...impl, steps });
  };
  const said = (prefix: string) => {
    const mine = problems.filter((problem) => problem.path === prefix || problem.path.startsWith(`${prefix}/`));
    const shown = (list: RecipeProblem[]) => list.map((problem) => problem.message);
    return {
      problems: [...context.problemsAt(prefix)],
      // What the live check finds does not stop Save (a tool may come later); the core refuses what it must.
      warnings: [...shown(mine.filter((problem) => problem.level !== 'note')), ...shown(mine.filter((problem) => problem.level === 'note'))],
    };
  };
  const groupTitle = (group: string) => {
    if (group === 'inputs') return t('recipe.groups.inputs');
    if (group === 'each') return t('recipe.groups.each');
    const index = impl.steps.findIndex((step) => step.id === group);
    return t('recipe.groups.step', { number: index + 1, id: group });
  };
  const sourceOptions = (index: number, forEach: boolean) =>
    sourcesAt(impl, argSchema, index, {
      ...(lastRun ? { lastResults: lastRun.results } : {}),
      outputSchemaOf: (at) => {
        const tool = toolOf(impl.steps[at]!);
        return tool?.outputSchema;
      },
      forEach,
    });
  const hidden = (tool: ToolView) => tool.bundleID === bundleID && tool.slug === slug;
  const missing = problems.filter((problem) => problem.code === 'recipe_missing_arg').length;
  const mismatched = problems.filter((problem) => problem.code === 'recipe_type_mismatch').length;
  const output = impl.output;
  const outputSaid = said('/impl/output');
  const fieldSaid = (name: string) => said(`/impl/output/${name}`);
  const fields = output && typeof output === 'object' && !Array.isArray(output) ? (output as Record<string, unknown>) : null;

  return (
    <fieldset className="editor__group recipe">
      <legend>{t('recipe.legend')}</legend>
      <p className="muted">{t('recipe.help')}</p>
      <RecipeInputs
        rows={inputsOf(argSchema)}
        onChange={(rows: InputRow[], rename) => write(rename ? renameInput(impl, rename.from, rename.to) : impl, argSchemaFrom(rows))}
      />

      <h3 className="subhead">{t('recipe.steps.title', { count: impl.steps.length })}</h3>
      <p className={missing || mismatched ? 'warning-text' : 'muted'} role="status">
        {missing || mismatched ? [missing ? t('recipe.steps.missing', { count: missing }) : '', mismatched ? t('recipe.steps.mismatched', { count: mismatched }) : ''].filter(Boolean).join(' · ') : impl.steps.length ? t('recipe.steps.allSet') : t('recipe.steps.none')}
      </p>
      <ol className="recipe-steps" aria-label={t('recipe.steps.list')}>
        {impl.steps.map((step, index) => (
          <RecipeStepCard
            key={stepKeys[index]}
            step={step}
            index={index}
            count={impl.steps.length}
            tool={toolOf(step)}
            sources={sourceOptions(index, step.forEach !== undefined)}
            outerSources={sourceOptions(index, false)}
            groupTitle={groupTitle}
            problemsAt={(pointer) => said(`/impl/steps/${index}${pointer}`)}
            hidden={hidden}
            onChange={(changed) => setSteps(impl.steps.map((other, at) => (at === index ? changed : other)), stepKeys)}
            onRename={(to) => {
              if (impl.steps.some((other, at) => other.id === to && at !== index)) return;
              write(renameStep(impl, step.id, to));
            }}
            onMove={(to) => {
              if (to < 0 || to >= impl.steps.length) return;
              setSteps(moveStep(impl.steps, index, to), moveStep(stepKeys, index, to));
            }}
            onRemove={() => setSteps(impl.steps.filter((_, at) => at !== index), stepKeys.filter((_, at) => at !== index))}
            dragging={{
              onDragStart: () => (dragged.current = index),
              onDrop: () => {
                const from = dragged.current;
                dragged.current = null;
                if (from === null || from === index) return;
                setSteps(moveStep(impl.steps, from, index), moveStep(stepKeys, from, index));
              },
            }}
          />
        ))}
      </ol>
      {adding ? (
        <StepToolSearch
          label={t('recipe.steps.addLabel', { number: impl.steps.length + 1 })}
          hidden={hidden}
          autoFocus={impl.steps.length > 0}
          {...(impl.steps.length ? { onCancel: () => setAdding(false) } : {})}
          onPick={(tool) => {
            setSteps([...impl.steps, newStep(tool, impl.steps, sourceOptions(impl.steps.length, false))], [...stepKeys, freshKey()]);
            setAdding(false);
          }}
        />
      ) : (
        <div>
          <button type="button" className="button button--small" onClick={() => setAdding(true)}>
            {t('recipe.steps.add')}
          </button>
        </div>
      )}
      <Problems id="recipe-steps-problems" problems={context.problemsAt('/impl/steps').filter((problem) => !/^\/impl\/steps\/\d/.test(problem))} />

      <h3 className="subhead">{t('recipe.output.title')}</h3>
      <label className="recipe-output__mode">
        <span className="field__label">{t('recipe.output.mode')}</span>
        <select className="input" value={fields ? 'fields' : 'one'} onChange={(event) => write({ ...impl, output: event.target.value === 'fields' ? {} : '' })}>
          <option value="fields">{t('recipe.output.fields')}</option>
          <option value="one">{t('recipe.output.one')}</option>
        </select>
      </label>
      {fields ? (
        <OutputFields fields={fields} sources={sourceOptions(impl.steps.length, false)} groupTitle={groupTitle} said={fieldSaid} onChange={(next) => write({ ...impl, output: next })} />
      ) : (
        <ValueField label={t('recipe.output.value')} value={output} sources={sourceOptions(impl.steps.length, false)} groupTitle={groupTitle} optional={false} {...outputSaid} onChange={(value) => write({ ...impl, output: value ?? '' })} />
      )}
    </fieldset>
  );
}

/** The output as an object: one row a field, named by the person, each taking its value from what the recipe has. */
function OutputFields({ fields, sources, groupTitle, said, onChange }: { fields: Record<string, unknown>; sources: ReturnType<typeof sourcesAt>; groupTitle: (group: string) => string; said: (name: string) => { problems: string[]; warnings: string[] }; onChange: (fields: Record<string, unknown>) => void }) {
  const { t } = useTranslation();
  const entries = Object.entries(fields);
  const rename = (from: string, to: string) => onChange(Object.fromEntries(entries.map(([key, value]) => [key === from ? to : key, value])));
  return (
    <div className="recipe-output">
      {entries.length === 0 ? <p className="muted">{t('recipe.output.none')}</p> : null}
      {entries.map(([name, value], index) => (
        <div key={index} className="recipe-output__row">
          <label className="recipe-output__name">
            <span className="field__label">{t('recipe.output.name')}</span>
            <input className="input input--code" value={name} spellCheck={false} onChange={(event) => event.target.value && !(event.target.value in fields) && rename(name, event.target.value)} />
          </label>
          <ValueField label={t('recipe.output.fieldValue', { name })} value={value} sources={sources} groupTitle={groupTitle} {...said(name)} onChange={(next) => onChange({ ...fields, [name]: next ?? null })} />
          <button type="button" className="icon-button" aria-label={t('recipe.output.remove', { name })} title={t('recipe.output.remove', { name })} onClick={() => onChange(Object.fromEntries(entries.filter(([key]) => key !== name)))}>
            <TrashIcon />
          </button>
        </div>
      ))}
      <div>
        <button
          type="button"
          className="button button--small"
          onClick={() => {
            let count = entries.length + 1;
            while (`field${count}` in fields) count++;
            onChange({ ...fields, [`field${count}`]: null });
          }}
        >
          {t('recipe.output.add')}
        </button>
      </div>
    </div>
  );
}
