import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { TrashIcon } from '../../../../components/icons.js';
import { INPUT_TYPES, type InputRow } from './recipe-draft.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A default as typed, read as the input's type (a number stays a number); empty is none. */
function readDefault(text: string, type: string): unknown {
  if (text === '') return undefined;
  if ((type === 'number' || type === 'integer') && Number.isFinite(Number(text))) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  if (type === 'array' || type === 'object') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * What a recipe asks for when it is called: one row an input (name, type,
 * description, required, default). The tool's argSchema is made from it;
 * renaming an input renames the references to it.
 */
export function RecipeInputs({ rows, onChange }: { rows: InputRow[]; onChange: (rows: InputRow[], rename?: { from: string; to: string }) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const update = (index: number, change: Partial<InputRow>) => onChange(rows.map((row, at) => (at === index ? { ...row, ...change } : row)));
  const freeName = () => {
    let count = rows.length + 1;
    while (rows.some((row) => row.name === `input${count}`)) count++;
    return `input${count}`;
  };
  return (
    <div className="recipe-inputs" role="group" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="subhead">
        {t('recipe.inputs.title')}
      </h3>
      {rows.length === 0 ? <p className="muted">{t('recipe.inputs.none')}</p> : null}
      {rows.map((row, index) => {
        const bad = !NAME.test(row.name) ? t('recipe.inputs.badName') : rows.findIndex((other) => other.name === row.name) !== index ? t('recipe.inputs.twice') : null;
        return (
          <div key={index} className="recipe-inputs__row">
            <label className="recipe-inputs__cell">
              <span className="field__label">{t('recipe.inputs.name')}</span>
              <input
                className="input input--code"
                value={row.name}
                aria-invalid={bad ? true : undefined}
                spellCheck={false}
                onChange={(event) => {
                  const name = event.target.value;
                  const renamed = rows.map((other, at) => (at === index ? { ...other, name } : other));
                  onChange(renamed, NAME.test(row.name) && NAME.test(name) ? { from: row.name, to: name } : undefined);
                }}
              />
            </label>
            <label className="recipe-inputs__cell">
              <span className="field__label">{t('recipe.inputs.type')}</span>
              <select className="input" value={row.type} onChange={(event) => update(index, { type: event.target.value, default: undefined })}>
                {INPUT_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {t(`recipe.types.${type}`)}
                  </option>
                ))}
              </select>
            </label>
            <label className="recipe-inputs__cell recipe-inputs__cell--wide">
              <span className="field__label">{t('recipe.inputs.description')}</span>
              <input className="input" dir="auto" value={row.description} onChange={(event) => update(index, { description: event.target.value })} />
            </label>
            <label className="recipe-inputs__cell">
              <span className="field__label">{t('recipe.inputs.default')}</span>
              <input
                className="input"
                value={row.default === undefined ? '' : typeof row.default === 'string' ? row.default : JSON.stringify(row.default)}
                onChange={(event) => update(index, { default: readDefault(event.target.value, row.type) })}
              />
            </label>
            <label className="checkbox recipe-inputs__required">
              <input type="checkbox" checked={row.required} onChange={(event) => update(index, { required: event.target.checked })} />
              {t('recipe.inputs.required')}
            </label>
            <button type="button" className="icon-button" aria-label={t('recipe.inputs.remove', { name: row.name })} title={t('recipe.inputs.remove', { name: row.name })} onClick={() => onChange(rows.filter((_, at) => at !== index))}>
              <TrashIcon />
            </button>
            {bad ? (
              <p className="field__error recipe-inputs__problem" role="alert">
                {bad}
              </p>
            ) : null}
          </div>
        );
      })}
      <div>
        <button type="button" className="button button--small" onClick={() => onChange([...rows, { name: freeName(), type: 'string', description: '', required: true }])}>
          {t('recipe.inputs.add')}
        </button>
      </div>
    </div>
  );
}
