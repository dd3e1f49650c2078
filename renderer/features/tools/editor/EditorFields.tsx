import { i18n } from '../../../i18n/index.js';
import { useId, useState, type ReactNode } from 'react';
import { getPath, setPath, type Draft } from './draft.js';

export interface FieldContext {
  draft: Draft;
  setDraft: (draft: Draft) => void;
  /**
   * A change made to the newest draft. For changes that arrive between renders (an editor's keystrokes, a reading
   * of the code coming back): built on `draft` from an older render, they would undo what happened since.
   */
  updateDraft: (change: (current: Draft) => Draft) => void;
  /** Problems for a JSON pointer, including those below it: each one stops Save. */
  problemsAt: (pointer: string) => string[];
  /** What is worth knowing but does not stop Save (a secret not set yet), for a pointer and below it. */
  warningsAt: (pointer: string) => string[];
  /** The person changed or left the field at this pointer: its problems show from now on. */
  touch: (pointer: string) => void;
  /** Text typed into a JSON field that does not parse yet (kept by the editor, so nothing is lost); null once it parses. */
  typed: (pointer: string) => string | undefined;
  setTyped: (pointer: string, text: string | null) => void;
}

/** The id, problems and current value of a field bound to `path`. */
function useBoundField(context: FieldContext, path: string[]) {
  const id = useId();
  const pointer = `/${path.join('/')}`;
  return { id, problems: context.problemsAt(pointer), warnings: context.warningsAt(pointer), value: getPath(context.draft, path), onLeave: () => context.touch(pointer) };
}

/** A field's problems (red: Save waits for them) and warnings (amber: it saves), one to a line. */
export function Problems({ id, problems: said, warnings: warned = [] }: { id: string; problems: string[]; warnings?: string[] }) {
  // Two checks may say the same sentence (the core's and the live one): once is enough.
  const problems = [...new Set(said)];
  const warnings = [...new Set(warned)];
  if (problems.length === 0 && warnings.length === 0) return null;
  return (
    <div id={id} className="field__problems">
      {problems.map((problem) => (
        <p key={problem} className="field__error">
          {problem}
        </p>
      ))}
      {warnings.map((warning) => (
        <p key={warning} className="field__warning">
          {warning}
        </p>
      ))}
    </div>
  );
}

/** What every control in a Shell carries: its id, its help and problems, whether it is invalid. */
interface ControlProps {
  id: string;
  'aria-describedby': string | undefined;
  'aria-invalid': true | undefined;
}

function Shell({
  label,
  help,
  problems,
  warnings,
  children,
  id,
  onLeave,
}: {
  label: string;
  help?: ReactNode;
  problems: string[];
  warnings: string[];
  children: (control: ControlProps) => ReactNode;
  id: string;
  onLeave: () => void;
}) {
  const describedBy = [help ? `${id}-help` : null, problems.length || warnings.length ? `${id}-problems` : null].filter(Boolean).join(' ') || undefined;
  const control: ControlProps = { id, 'aria-describedby': describedBy, 'aria-invalid': problems.length ? true : undefined };
  return (
    <div className="field" onBlur={onLeave} onChange={onLeave}>
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      {children(control)}
      {help ? (
        <p id={`${id}-help`} className="field__help">
          {help}
        </p>
      ) : null}
      <Problems id={`${id}-problems`} problems={problems} warnings={warnings} />
    </div>
  );
}

interface TextFieldProps {
  context: FieldContext;
  path: string[];
  label: string;
  help?: ReactNode;
  placeholder?: string;
  mono?: boolean;
  /** Values offered as the person types (any other is taken too). */
  suggestions?: string[];
}

/** A text field bound to a path of the draft. */
export function TextField({ context, path, label, help, placeholder, mono, suggestions }: TextFieldProps) {
  const { id, problems, warnings, value, onLeave } = useBoundField(context, path);
  return (
    <Shell id={id} onLeave={onLeave} label={label} help={help} problems={problems} warnings={warnings}>
      {(control) => (
        <>
          <input
            {...control}
            className={mono ? 'input input--code' : 'input'}
            value={typeof value === 'string' || typeof value === 'number' ? String(value) : ''}
            placeholder={placeholder}
            list={suggestions?.length ? `${id}-suggestions` : undefined}
            onChange={(event) => context.setDraft(setPath(context.draft, path, event.target.value))}
          />
          {suggestions?.length ? (
            <datalist id={`${id}-suggestions`}>
              {suggestions.map((suggestion) => (
                <option key={suggestion} value={suggestion} />
              ))}
            </datalist>
          ) : null}
        </>
      )}
    </Shell>
  );
}

export function NumberField({ context, path, label, help }: { context: FieldContext; path: string[]; label: string; help?: string }) {
  const { id, problems, warnings, value, onLeave } = useBoundField(context, path);
  return (
    <Shell id={id} onLeave={onLeave} label={label} help={help} problems={problems} warnings={warnings}>
      {(control) => (
        <input
          {...control}
          className="input"
          inputMode="numeric"
          value={typeof value === 'number' ? String(value) : ''}
          onChange={(event) => {
            const text = event.target.value.trim();
            context.setDraft(setPath(context.draft, path, text === '' ? undefined : Number.isFinite(Number(text)) ? Number(text) : text));
          }}
        />
      )}
    </Shell>
  );
}

type Choice = string | { value: string; label: string };

interface SelectFieldProps {
  context: FieldContext;
  path: string[];
  label: string;
  options: Choice[];
  /** An empty choice meaning "the default". */
  allowEmpty?: boolean;
  /** Shown while nothing is chosen, not itself a choice. */
  placeholder?: string;
  help?: ReactNode;
}

export function SelectField({ context, path, label, options, allowEmpty, placeholder, help }: SelectFieldProps) {
  const { id, problems, warnings, value, onLeave } = useBoundField(context, path);
  const current = typeof value === 'string' ? value : '';
  const choices = options.map((option) => (typeof option === 'string' ? { value: option, label: option } : option));
  // A value the file holds that is no longer offered (a provider removed) stays visible, not silently replaced.
  const unknown = current !== '' && !choices.some((choice) => choice.value === current);
  return (
    <Shell id={id} onLeave={onLeave} label={label} help={help} problems={problems} warnings={warnings}>
      {(control) => (
        <select {...control} className="input" value={current} onChange={(event) => context.setDraft(setPath(context.draft, path, event.target.value || undefined))}>
          {allowEmpty ? <option value="">{i18n.t('fields.default')}</option> : null}
          {placeholder && !allowEmpty && current === '' ? (
            <option value="" disabled>
              {placeholder}
            </option>
          ) : null}
          {unknown ? <option value={current}>{i18n.t('fields.missing', { value: current })}</option> : null}
          {choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      )}
    </Shell>
  );
}

export function CheckField({ context, path, label }: { context: FieldContext; path: string[]; label: string }) {
  const id = useId();
  return (
    <label className="checkbox" htmlFor={id}>
      <input id={id} type="checkbox" checked={getPath(context.draft, path) === true} onChange={(event) => context.setDraft(setPath(context.draft, path, event.target.checked))} />
      {label}
    </label>
  );
}

/** A list edited as comma-separated text (tags, success codes). */
export function ListField({ context, path, label, numbers, help }: { context: FieldContext; path: string[]; label: string; numbers?: boolean; help?: string }) {
  const { id, problems, warnings, value: current, onLeave } = useBoundField(context, path);
  const [text, setText] = useState(Array.isArray(current) ? current.join(', ') : '');
  return (
    <Shell id={id} onLeave={onLeave} label={label} help={help} problems={problems} warnings={warnings}>
      {(control) => (
        <input
          {...control}
          className="input"
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            const items = event.target.value.split(',').map((item) => item.trim()).filter(Boolean);
            context.setDraft(setPath(context.draft, path, items.length ? (numbers ? items.map(Number) : items) : undefined));
          }}
        />
      )}
    </Shell>
  );
}

/** A nested object (query, headers, auth, retry…) edited as JSON text. */
export function JsonTextField({ context, path, label, help, rows = 3 }: { context: FieldContext; path: string[]; label: string; help?: ReactNode; rows?: number }) {
  const { id, problems, warnings, value: current, onLeave } = useBoundField(context, path);
  const pointer = `/${path.join('/')}`;
  // Text that did not parse when the view changed comes back as it was typed.
  const [text, setText] = useState(() => context.typed(pointer) ?? (current === undefined ? '' : JSON.stringify(current, null, 2)));
  return (
    <Shell id={id} onLeave={onLeave} label={label} help={help} problems={problems} warnings={warnings}>
      {(control) => (
        <textarea
          {...control}
          className="input input--code"
          rows={rows}
          spellCheck={false}
          value={text}
          onChange={(event) => {
            const typed = event.target.value;
            setText(typed);
            if (typed.trim() === '') {
              context.setTyped(pointer, null);
              context.setDraft(setPath(context.draft, path, undefined));
              return;
            }
            try {
              const parsed = JSON.parse(typed) as unknown;
              context.setTyped(pointer, null);
              context.setDraft(setPath(context.draft, path, parsed));
            } catch {
              context.setTyped(pointer, typed);
            }
          }}
        />
      )}
    </Shell>
  );
}
