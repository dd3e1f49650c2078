import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type * as MonacoTypes from 'monaco-editor';
import { isMac } from '../Kbd.js';
import { useDark } from '../use-dark.js';
import { loadMonaco } from './load-monaco.js';

interface JsonEditorProps {
  /** Accessible name of the editor's text area. */
  label: string;
  /** The text it opens with. The editor then owns its text; remount it (key) to replace it. */
  value: string;
  onChange: (text: string) => void;
  /** JSON Schema the document is validated against as you type. */
  schema?: Record<string, unknown>;
  height?: number;
  /** JSON (the default), or a script's language, with `typings` given to the TypeScript service. */
  language?: 'json' | 'typescript' | 'javascript';
  typings?: string;
}

const typingsGiven = new Set<string>();

/**
 * What Tab does in the editors: moves to the next field (so an editor inside a form is no keyboard trap), until the
 * person switches it with the key Monaco gives this (Ctrl+M; Ctrl+Shift+M on a Mac) to type tabs. Their choice holds
 * for every editor until the window reloads.
 */
let tabTypesTab = false;

let modelCounter = 0;

/**
 * A Monaco JSON editor. It owns its text while it is open (so the cursor
 * never jumps as the parent re-renders); a parent replaces the text by
 * remounting it with a new key.
 */
export function JsonEditor({ label, value, onChange, schema, height = 260, language = 'json', typings }: JsonEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<MonacoTypes.editor.IStandaloneCodeEditor | null>(null);
  const latestOnChange = useRef(onChange);
  const dark = useDark();
  const { t } = useTranslation();
  const [failed, setFailed] = useState<string | null>(null);
  const [tabTypes, setTabTypes] = useState(tabTypesTab);
  useEffect(() => {
    latestOnChange.current = onChange;
  }, [onChange]);

  useEffect(() => {
    let disposed = false;
    let created: MonacoTypes.editor.IStandaloneCodeEditor | null = null;
    let model: MonacoTypes.editor.ITextModel | null = null;
    loadMonaco()
      .then((monaco) => {
        if (disposed || !host.current) return;
        const uri = monaco.Uri.parse(`toolbelt://documents/${++modelCounter}.${language === 'json' ? 'json' : language === 'typescript' ? 'ts' : 'js'}`);
        if (typings && !typingsGiven.has(typings)) {
          typingsGiven.add(typings);
          monaco.typescript.typescriptDefaults.addExtraLib(typings, `toolbelt://typings/${typingsGiven.size}.d.ts`);
          monaco.typescript.javascriptDefaults.addExtraLib(typings, `toolbelt://typings/${typingsGiven.size}.d.ts`);
        }
        if (schema) {
          const defaults = monaco.json.jsonDefaults;
          const others = (defaults.diagnosticsOptions.schemas ?? []).filter((entry) => !entry.fileMatch?.includes(uri.toString()));
          defaults.setDiagnosticsOptions({
            validate: true,
            allowComments: false,
            enableSchemaRequest: false,
            schemas: [...others, { uri: `toolbelt://schemas/${modelCounter}`, fileMatch: [uri.toString()], schema }],
          });
        }
        model = monaco.editor.createModel(value, language, uri);
        created = monaco.editor.create(host.current, {
          model,
          automaticLayout: true,
          minimap: { enabled: false },
          fontSize: 13,
          scrollBeyondLastLine: false,
          tabSize: 2,
          // Typing over a selection replaces it: surrounding it with the first quote or bracket typed garbled
          // select-all-and-type (defect 6).
          autoSurround: 'never',
          ariaLabel: label,
          theme: dark ? 'vs-dark' : 'vs',
          tabFocusMode: !tabTypesTab,
        });
        editor.current = created;
        const editing = created;
        const toggleKey = isMac ? monaco.KeyMod.WinCtrl | monaco.KeyMod.Shift | monaco.KeyCode.KeyM : monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyM;
        // An action, not a command: an action is this editor's own (a command is every editor's, and the last one made took it).
        editing.addAction({
          id: 'toolbelt.switchTab',
          label: t('jsonEditor.switchTab'),
          keybindings: [toggleKey],
          run: () => {
            tabTypesTab = !tabTypesTab;
            editing.updateOptions({ tabFocusMode: !tabTypesTab });
            setTabTypes(tabTypesTab);
          },
        });
        editing.onDidFocusEditorText(() => {
          // Another editor may have switched it meanwhile.
          editing.updateOptions({ tabFocusMode: !tabTypesTab });
          setTabTypes(tabTypesTab);
        });
        created.onDidChangeModelContent(() => latestOnChange.current(created!.getValue()));
      })
      .catch((error: unknown) => setFailed(error instanceof Error ? error.message : String(error)));
    return () => {
      disposed = true;
      created?.dispose();
      model?.dispose();
      editor.current = null;
    };
    // The editor is created once; value and theme follow below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    // Where Monaco cannot load, the editor is a text box already (and says nothing more): no theme to set.
    loadMonaco().then(
      (monaco) => monaco.editor.setTheme(dark ? 'vs-dark' : 'vs'),
      () => undefined,
    );
  }, [dark]);

  if (failed) {
    return (
      <textarea className="input input--code" aria-label={label} rows={12} value={value} onChange={(event) => onChange(event.target.value)} spellCheck={false} />
    );
  }
  return (
    <div className="json-editor-frame">
      {/* Code, the same in every language: no browser translates it. */}
      <div ref={host} className="json-editor" style={{ height }} data-testid={`json-editor-${label}`} translate="no" dir="ltr" />
      {/* Under the code, not over its first line: what Tab does, and Format. */}
      <div className="json-editor__foot">
        <p className="json-editor__keys" aria-live="polite">
          {t(tabTypes ? 'jsonEditor.tabTypes' : 'jsonEditor.tabMoves', { key: isMac ? '⌃⇧M' : `${t('keys.ctrl')}+M` })}
        </p>
        <button
          type="button"
          className="button button--small button--ghost json-editor__format"
          aria-label={t('jsonEditor.formatLabel', { label })}
          title={t('jsonEditor.formatHint')}
          onClick={() => void editor.current?.getAction('editor.action.formatDocument')?.run()}
        >
          {t('jsonEditor.format')}
        </button>
      </div>
    </div>
  );
}
