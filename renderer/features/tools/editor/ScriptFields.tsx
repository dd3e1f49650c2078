import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SCRIPT_EXAMPLES, SCRIPT_SANDBOX_TYPES, type ScriptExample } from '../../../../shared/tools/script-sandbox-types.js';
import { useApi } from '../../../api/context.js';
import { JsonTree } from '../../../components/JsonTree.js';
import { JsonEditor } from '../../../components/monaco/JsonEditor.js';
import { getPath, setPath } from './draft.js';
import { ListField, Problems, SelectField, type FieldContext } from './EditorFields.js';

/** Names of languages, the same in every language. */
const LANGUAGES = [
  { value: 'typescript', label: 'TypeScript' },
  { value: 'javascript', label: 'JavaScript' },
];

/**
 * A script tool's module: its language, its code in the editor with the
 * sandbox's typings (fetch, secret, console), and the secrets it may read.
 * An argument schema left empty is read from the function when it is saved.
 */
export function ScriptFields({ context, revision }: { context: FieldContext; revision: number }) {
  const { t } = useTranslation();
  const language = getPath(context.draft, ['impl', 'language']) === 'javascript' ? 'javascript' : 'typescript';
  const source = getPath(context.draft, ['impl', 'source']);
  const code = typeof source === 'string' ? source : '';
  const read = useReadScript(language, code);
  const derived = read.data;
  useFollowedSchema(context, derived);
  // Starting from an example replaces the code: the editor opens again on it.
  const [started, setStarted] = useState(0);
  const examples: { value: ScriptExample; label: string }[] = [
    { value: 'hello', label: t('editor.script.exampleHello') },
    { value: 'reshape', label: t('editor.script.exampleReshape') },
    { value: 'join', label: t('editor.script.exampleJoin') },
    { value: 'dates', label: t('editor.script.exampleDates') },
  ];
  return (
    <fieldset className="editor__group">
      <legend>{t('editor.script.legend')}</legend>
      <SelectField context={context} path={['impl', 'language']} label={t('editor.script.language')} options={LANGUAGES} />
      <p className="muted">{t('editor.script.help')}</p>
      <label className="field">
        <span className="field__label">{t('editor.script.startFrom')}</span>
        <select
          className="input"
          value=""
          onChange={(event) => {
            const example = event.target.value as ScriptExample;
            if (!(example in SCRIPT_EXAMPLES)) return;
            context.setDraft(setPath(setPath(context.draft, ['impl', 'language'], 'typescript'), ['impl', 'source'], SCRIPT_EXAMPLES[example]));
            setStarted((count) => count + 1);
          }}
        >
          <option value="">{t('editor.script.chooseExample')}</option>
          {examples.map((example) => (
            <option key={example.value} value={example.value}>
              {example.label}
            </option>
          ))}
        </select>
      </label>
      <JsonEditor
        key={`script-${revision}-${language}-${started}`}
        label={t('editor.script.code')}
        language={language}
        typings={SCRIPT_SANDBOX_TYPES}
        value={typeof source === 'string' ? source : ''}
        height={320}
        onChange={(text) => {
          context.updateDraft((current) => setPath(current, ['impl', 'source'], text));
          context.touch('/impl/source');
        }}
      />
      <Problems id="script-source-problems" problems={[...context.problemsAt('/impl/source'), ...(derived?.problems ?? []).map((problem) => t('editor.script.problem', { line: problem.line, message: problem.message }))]} />
      {derived && derived.problems.length === 0 ? (
        <section className="editor__derived" aria-label={t('editor.script.derivedLabel')}>
          <h3 className="subhead">{t('editor.script.derived', { count: derived.parameters.length })}</h3>
          <JsonTree value={derived.argSchema} />
          <button
            type="button"
            className="button button--small"
            onClick={() => {
              context.updateDraft((current) => setPath(current, ['argSchema'], derived.argSchema));
              context.touch('/argSchema');
            }}
          >
            {t('editor.script.useDerived')}
          </button>
        </section>
      ) : null}
      <ListField context={context} path={['impl', 'secrets']} label={t('editor.script.secrets')} help={t('editor.script.secretsHelp')} />
    </fieldset>
  );
}

/** An argument schema with nothing in it: what a new tool starts with. */
function isBlank(schema: unknown): boolean {
  if (schema === undefined || schema === null) return true;
  if (typeof schema !== 'object') return false;
  const { type, properties, required, ...rest } = schema as Record<string, unknown>;
  const empty = (value: unknown) => value === undefined || (typeof value === 'object' && value !== null && Object.keys(value).length === 0);
  return (type === undefined || type === 'object') && empty(properties) && empty(required) && Object.keys(rest).length === 0;
}

/**
 * The draft's argument schema follows the function's parameters as they are typed (so its tester and form take
 * them), until the person writes the schema by hand: then theirs stays, and "Use this as the argument schema" is there.
 */
function useFollowedSchema(context: FieldContext, derived: { argSchema: Record<string, unknown>; problems: unknown[] } | undefined) {
  const followed = useRef<string | null>(null);
  const { updateDraft } = context;
  useEffect(() => {
    if (!derived || derived.problems.length > 0) return;
    const next = JSON.stringify(derived.argSchema);
    // Decided on the newest draft: keystrokes typed while the code was being read must not count as a hand edit.
    updateDraft((draft) => {
      const current = getPath(draft, ['argSchema']);
      const now = JSON.stringify(current ?? {});
      if (now === next || !(now === followed.current || isBlank(current))) return draft;
      followed.current = next;
      return setPath(draft, ['argSchema'], derived.argSchema);
    });
  }, [derived, updateDraft]);
}

/** What saving would read from the code, asked of the core a moment after typing stops. */
function useReadScript(language: 'typescript' | 'javascript', source: string) {
  const api = useApi();
  const [settled, setSettled] = useState(source);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(source), 300);
    return () => clearTimeout(timer);
  }, [source]);
  return useQuery({
    queryKey: ['tools', 'readScript', language, settled],
    queryFn: () => api.tools.readScript({ language, source: settled }),
    enabled: settled.trim() !== '',
    placeholderData: (previous) => previous,
  });
}
