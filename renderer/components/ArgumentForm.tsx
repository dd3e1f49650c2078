import { useTranslation } from 'react-i18next';
import { useId, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { i18n } from '../i18n/index.js';
import { asSentence, issueLine } from './issue-text.js';

type JsonSchema = Record<string, unknown>;

interface Choice {
  value: string;
  label: string;
}

interface Field {
  name: string;
  label: string;
  schema: JsonSchema;
  required: boolean;
  kind: 'string' | 'enum' | 'multi' | 'number' | 'integer' | 'boolean' | 'json';
  /** For enum and multi: the values and how they read (oneOf/anyOf titles, or the legacy enumNames). */
  choices: Choice[];
}

/** String choices as JSON Schema spells them: enum (with enumNames), or oneOf/anyOf of { const, title }. */
function choicesOf(schema: JsonSchema | undefined): Choice[] | null {
  if (!schema) return null;
  if (Array.isArray(schema.enum) && schema.enum.every((value) => typeof value === 'string')) {
    const names = Array.isArray(schema.enumNames) ? (schema.enumNames as unknown[]) : [];
    return (schema.enum).map((value, index) => ({ value, label: typeof names[index] === 'string' ? names[index] : value }));
  }
  const branches = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (Array.isArray(branches) && branches.length > 0 && branches.every((branch) => typeof branch.const === 'string')) {
    return branches.map((branch) => ({ value: branch.const as string, label: typeof branch.title === 'string' ? branch.title : (branch.const as string) }));
  }
  return null;
}

function fieldsOf(schema: JsonSchema): Field[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).map(([name, property]) => {
    const type = property.type;
    const single = choicesOf(property);
    const multiple = type === 'array' ? choicesOf(property.items as JsonSchema | undefined) : null;
    const kind: Field['kind'] = single
      ? 'enum'
      : multiple
        ? 'multi'
        : Array.isArray(property.enum)
          ? 'enum'
          : type === 'string' || type === 'number' || type === 'integer' || type === 'boolean'
            ? type
            : 'json';
    const choices = single ?? multiple ?? (Array.isArray(property.enum) ? property.enum.map((value) => ({ value: String(value), label: String(value) })) : []);
    return { name, label: typeof property.title === 'string' ? property.title : name, schema: property, required: required.has(name), kind, choices };
  });
}

function initialText(field: Field, given?: Record<string, unknown>): string {
  const fallback = given && Object.hasOwn(given, field.name) ? given[field.name] : field.schema.default;
  if (fallback === undefined) return '';
  if (field.kind === 'multi') return JSON.stringify(Array.isArray(fallback) ? fallback : []);
  if (typeof fallback === 'string') return field.kind === 'json' ? JSON.stringify(fallback) : fallback;
  if ((typeof fallback === 'number' || typeof fallback === 'boolean') && field.kind !== 'json') return String(fallback);
  return JSON.stringify(fallback, null, 2);
}

/** Turns the form's text into arguments; fields left empty are left out. */
function collect(fields: Field[], texts: Record<string, string>, flags: Record<string, boolean>): { args: Record<string, unknown>; errors: Record<string, string> } {
  const args: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const field of fields) {
    if (field.kind === 'boolean') {
      if (flags[field.name] !== undefined) args[field.name] = flags[field.name];
      continue;
    }
    const text = texts[field.name] ?? '';
    if (field.kind === 'multi') {
      // Kept as the JSON of the picked values, so the form's state stays text like the other fields.
      const picked = text ? (JSON.parse(text) as string[]) : [];
      if (picked.length > 0) args[field.name] = picked;
      else if (field.required) errors[field.name] = i18n.t('argForm.pickOne');
      continue;
    }
    if (text.trim() === '') {
      if (field.required) errors[field.name] = i18n.t('argForm.required');
      continue;
    }
    if (field.kind === 'number' || field.kind === 'integer') {
      const value = Number(text);
      if (!Number.isFinite(value) || (field.kind === 'integer' && !Number.isInteger(value))) errors[field.name] = i18n.t(field.kind === 'integer' ? 'argForm.wholeNumber' : 'argForm.number');
      else args[field.name] = value;
    } else if (field.kind === 'json') {
      try {
        args[field.name] = JSON.parse(text) as unknown;
      } catch {
        errors[field.name] = i18n.t('argForm.validJson');
      }
    } else {
      args[field.name] = text;
    }
  }
  return { args, errors };
}

interface ArgumentFormProps {
  /** Accessible name of the form: the tool's name. */
  name: string;
  schema: JsonSchema;
  submitLabel?: string;
  /** The submit button's words while busy. */
  busyLabel?: string;
  busy?: boolean;
  /** Run is not possible for now (a draft with problems): the button is off, the form stays editable. */
  blocked?: boolean;
  /** Problems reported by the core (ajv), by JSON pointer. */
  issues?: { path: string; message: string }[];
  onSubmit: (args: Record<string, unknown>) => void;
  /** Called with the arguments as they stand after every edit (for checks as you type). */
  onArgsChange?: (args: Record<string, unknown>) => void;
  actions?: ReactNode;
  /** Values to start from (a past run, an example) instead of the schema's defaults. */
  initialArgs?: Record<string, unknown>;
}

/**
 * A form built from a tool's argSchema: text, numbers, booleans, enums as
 * selects, anything nested as JSON; titles as labels, descriptions as help,
 * required marks and defaults. A JSON mode edits the raw arguments.
 */
export function ArgumentForm({ name, schema, submitLabel, busyLabel, busy, blocked, issues = [], onSubmit, onArgsChange, actions, initialArgs }: ArgumentFormProps) {
  const { t } = useTranslation();
  const id = useId();
  const fields = useMemo(() => fieldsOf(schema), [schema]);
  const [texts, setTexts] = useState<Record<string, string>>(() => Object.fromEntries(fields.map((field) => [field.name, initialText(field, initialArgs)])));
  const [flags, setFlags] = useState<Record<string, boolean>>(() =>
    Object.fromEntries(
      fields.flatMap((field) => {
        if (field.kind !== 'boolean') return [];
        const start = initialArgs && Object.hasOwn(initialArgs, field.name) ? initialArgs[field.name] : field.schema.default;
        return typeof start === 'boolean' ? [[field.name, start]] : [];
      }),
    ),
  );
  const [jsonMode, setJsonMode] = useState(false);
  const [jsonText, setJsonText] = useState(() => JSON.stringify(initialArgs ?? {}, null, 2));
  const [localErrors, setLocalErrors] = useState<Record<string, string>>({});
  const [jsonError, setJsonError] = useState<string | null>(null);
  // Each edit reports the arguments as they now stand (for checks as you type).
  const editText = (name: string, value: string) => {
    const next = { ...texts, [name]: value };
    setTexts(next);
    onArgsChange?.(collect(fields, next, flags).args);
  };
  const editFlag = (name: string, value: boolean) => {
    const next = { ...flags, [name]: value };
    setFlags(next);
    onArgsChange?.(collect(fields, texts, next).args);
  };
  const editJson = (text: string) => {
    setJsonText(text);
    try {
      const parsed = JSON.parse(text) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) onArgsChange?.(parsed as Record<string, unknown>);
    } catch {
      // Half-typed JSON: checked when it parses.
    }
  };
  const issueFor = (field: string) => {
    const issue = issues.find((entry) => entry.path === `/${field}` || entry.path.startsWith(`/${field}/`));
    if (!issue) return undefined;
    // Shown at the field: a sentence about it, with the part inside it named when deeper.
    return issue.path === `/${field}` ? asSentence(issue.message) : issueLine(issue);
  };
  const rootIssues = issues.filter((issue) => !fields.some((field) => issue.path === `/${field.name}` || issue.path.startsWith(`/${field.name}/`)));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (jsonMode) {
      try {
        const parsed = JSON.parse(jsonText) as unknown;
        if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
        setJsonError(null);
        onSubmit(parsed as Record<string, unknown>);
      } catch {
        setJsonError('Enter a JSON object, e.g. { "city": "Paris" }.');
      }
      return;
    }
    const { args, errors } = collect(fields, texts, flags);
    setLocalErrors(errors);
    if (Object.keys(errors).length === 0) onSubmit(args);
  };

  const toggleMode = () => {
    if (!jsonMode) setJsonText(JSON.stringify(collect(fields, texts, flags).args, null, 2));
    setJsonMode(!jsonMode);
  };

  return (
    <form className="arg-form" aria-label={name} onSubmit={submit} noValidate>
      {jsonMode ? (
        <div className="field">
          <label className="field__label" htmlFor={`${id}-json`}>
            {t('argForm.json')}
          </label>
          <textarea id={`${id}-json`} className="input input--code" rows={8} value={jsonText} onChange={(event) => editJson(event.target.value)} spellCheck={false} />
          {jsonError ? <p className="field__error">{jsonError}</p> : null}
        </div>
      ) : fields.length === 0 ? (
        <p className="muted">{t('argForm.none')}</p>
      ) : (
        fields.map((field) => {
          const inputId = `${id}-${field.name}`;
          const error = localErrors[field.name] ?? issueFor(field.name);
          const help = typeof field.schema.description === 'string' ? field.schema.description : null;
          const describedBy = describedByOf(inputId, help !== null, Boolean(error));
          const common = { id: inputId, 'aria-describedby': describedBy, 'aria-invalid': error ? true : undefined, 'aria-required': field.required || undefined };
          return (
            <div key={field.name} className="field">
              {field.kind === 'boolean' ? (
                <label className="checkbox" htmlFor={inputId}>
                  <input {...common} type="checkbox" checked={flags[field.name] ?? false} onChange={(event) => editFlag(field.name, event.target.checked)} />
                  {field.label}
                </label>
              ) : (
                <>
                  <label id={`${inputId}-label`} className="field__label" htmlFor={inputId}>
                    {field.label}
                    {field.required ? <span className="field__required" aria-hidden="true"> *</span> : null}
                  </label>
                  {field.kind === 'enum' ? (
                    <select {...common} className="input" value={texts[field.name] ?? ''} onChange={(event) => editText(field.name, event.target.value)}>
                      <option value="">—</option>
                      {field.choices.map((choice) => (
                        <option key={choice.value} value={choice.value}>
                          {choice.label}
                        </option>
                      ))}
                    </select>
                  ) : field.kind === 'multi' ? (
                    <MultiChoice
                      {...common}
                      labelledBy={`${inputId}-label`}
                      choices={field.choices}
                      picked={texts[field.name] ? (JSON.parse(texts[field.name]!) as string[]) : []}
                      onChange={(picked) => editText(field.name, JSON.stringify(picked))}
                    />
                  ) : field.kind === 'json' ? (
                    <textarea {...common} className="input input--code" rows={3} spellCheck={false} value={texts[field.name] ?? ''} onChange={(event) => editText(field.name, event.target.value)} />
                  ) : (
                    <input
                      {...common}
                      className="input"
                      inputMode={field.kind === 'string' ? undefined : 'decimal'}
                      value={texts[field.name] ?? ''}
                      onChange={(event) => editText(field.name, event.target.value)}
                    />
                  )}
                </>
              )}
              {help ? (
                <p id={`${inputId}-help`} className="field__help">
                  {help}
                </p>
              ) : null}
              {error ? (
                <p id={`${inputId}-error`} className="field__error">
                  {error}
                </p>
              ) : null}
            </div>
          );
        })
      )}
      {rootIssues.map((issue) => (
        <p key={issue.path + issue.message} className="field__error">
          {issueLine(issue)}
        </p>
      ))}
      <div className="arg-form__actions">
        <button type="submit" className="button button--primary" disabled={busy || blocked}>
          {busy ? (busyLabel ?? t('argForm.running')) : (submitLabel ?? t('argForm.run'))}
        </button>
        <button type="button" className="button button--ghost" onClick={toggleMode}>
          {jsonMode ? t('argForm.form') : t('argForm.jsonMode')}
        </button>
        {actions}
      </div>
    </form>
  );
}

/** Several of a fixed set: a group of checkboxes, in the order the schema lists them. */
function MultiChoice({ id, labelledBy, choices, picked, onChange, ...aria }: { id: string; labelledBy: string; choices: Choice[]; picked: string[]; onChange: (picked: string[]) => void; 'aria-describedby'?: string; 'aria-invalid'?: boolean; 'aria-required'?: boolean }) {
  return (
    <div id={id} role="group" className="multi-choice" aria-labelledby={labelledBy} aria-describedby={aria['aria-describedby']} aria-invalid={aria['aria-invalid']} aria-required={aria['aria-required']}>
      {choices.map((choice) => (
        <label key={choice.value} className="checkbox">
          <input
            type="checkbox"
            checked={picked.includes(choice.value)}
            onChange={(event) => onChange(event.target.checked ? choices.map((each) => each.value).filter((value) => value === choice.value || picked.includes(value)) : picked.filter((value) => value !== choice.value))}
          />
          {choice.label}
        </label>
      ))}
    </div>
  );
}

/** The ids of a field's help and error lines, for aria-describedby. */
function describedByOf(inputId: string, hasHelp: boolean, hasError: boolean): string | undefined {
  return [hasHelp ? `${inputId}-help` : null, hasError ? `${inputId}-error` : null].filter(Boolean).join(' ') || undefined;
}
