import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Problems } from '../EditorFields.js';
import { sampleText, type ValueSource } from './sources.js';

const NONE = '#none';
const FIXED = '#fixed';
const TEMPLATE = '#template';

/** What a value is now: one of the listed sources, a fixed value, a template with text, or not chosen (null too: an output field not chosen yet). */
function modeOf(value: unknown, sources: ValueSource[]): string {
  if (value === undefined || value === null) return NONE;
  if (typeof value === 'string' && sources.some((source) => source.template === value)) return value;
  return typeof value === 'string' && value.includes('${') ? TEMPLATE : FIXED;
}

/** A fixed value as a person types it, read as the type the argument takes (a number stays a number). */
function readFixed(text: string, type: string | undefined): unknown {
  if ((type === 'number' || type === 'integer') && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  if (type === 'object' || type === 'array') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

const fixedText = (value: unknown) => (value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));

export interface ValueFieldProps {
  label: string;
  /** The argument's name, its type and whether it is required, said beside the label. */
  detail?: string;
  /** The JSON type the value should have, for reading a fixed value. */
  type?: string;
  value: unknown;
  sources: ValueSource[];
  /** How each group of sources is titled ("Inputs", "Step 1 · geo"). */
  groupTitle: (group: string) => string;
  onChange: (value: unknown) => void;
  problems?: string[];
  warnings?: string[];
  /** Offer "not set" (an argument that may be left out). */
  optional?: boolean;
}

/**
 * Where one value comes from, chosen from a list of what is there at that
 * point (inputs, fields of earlier results with the values they had in the
 * last trial run), or typed as a fixed value or a template (JSONPath and
 * all, for those who want it). No path needs typing to pick a field.
 */
export function ValueField({ label, detail, type, value, sources, groupTitle, onChange, problems = [], warnings = [], optional = true }: ValueFieldProps) {
  const { t } = useTranslation();
  const id = useId();
  // A fixed value or a template the person chose stays that while they type (a template is text until its "${" is typed).
  const [chosen, setChosen] = useState<string | null>(null);
  const derived = modeOf(value, sources);
  const mode = chosen !== null && derived !== NONE ? chosen : derived;
  // What a person types into the fixed field is kept as typed while it is not yet the type it should be.
  const [typed, setTyped] = useState(() => fixedText(value));
  const groups = [...new Set(sources.map((source) => source.group))];
  const describedBy = problems.length || warnings.length ? `${id}-problems` : undefined;
  return (
    <div className="recipe-value" role="group" aria-labelledby={`${id}-label`}>
      <label id={`${id}-label`} htmlFor={`${id}-from`} className="field__label">
        <span dir="auto">{label}</span>
        {detail ? <span className="muted"> · {detail}</span> : null}
      </label>
      <div className="recipe-value__row">
        <select
          id={`${id}-from`}
          className="input recipe-value__from"
          value={mode}
          aria-describedby={describedBy}
          aria-invalid={problems.length ? true : undefined}
          onChange={(event) => {
            const picked = event.target.value;
            setChosen(picked === FIXED || picked === TEMPLATE ? picked : null);
            if (picked === NONE) onChange(undefined);
            else if (picked === FIXED) onChange(readFixed(typed, type));
            else if (picked === TEMPLATE) onChange(typeof value === 'string' ? value : '');
            else onChange(picked);
          }}
        >
          <option value={NONE} disabled={!optional && mode !== NONE}>
            {t('recipe.value.none')}
          </option>
          <option value={FIXED}>{t('recipe.value.fixed')}</option>
          <option value={TEMPLATE}>{t('recipe.value.template')}</option>
          {groups.map((group) => (
            <optgroup key={group} label={groupTitle(group)}>
              {sources
                .filter((source) => source.group === group)
                .map((source) => (
                  <option key={source.template} value={source.template}>
                    {source.hasSample ? t('recipe.value.withSample', { name: source.label, sample: sampleText(source.sample) }) : source.type ? t('recipe.value.withType', { name: source.label, type: source.type }) : source.label}
                  </option>
                ))}
            </optgroup>
          ))}
        </select>
        {mode === FIXED ? (
          <input
            className="input"
            aria-label={t('recipe.value.fixedLabel', { name: label })}
            value={typed}
            onChange={(event) => {
              setTyped(event.target.value);
              onChange(readFixed(event.target.value, type));
            }}
          />
        ) : mode === TEMPLATE ? (
          <input className="input input--code" aria-label={t('recipe.value.templateLabel', { name: label })} value={typeof value === 'string' ? value : ''} spellCheck={false} onChange={(event) => onChange(event.target.value)} />
        ) : null}
      </div>
      <Problems id={`${id}-problems`} problems={problems} warnings={warnings} />
    </div>
  );
}
