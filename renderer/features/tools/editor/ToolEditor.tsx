import { useTranslation } from 'react-i18next';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ToolbeltError } from '../../../../shared/errors.js';
import { TOOL_DOCUMENT_JSON_SCHEMA } from '../../../../shared/schemas/tool-document-schema.js';
import type { ToolView } from '../../../../shared/schemas/tool.js';
import type { HttpImpl } from '../../../../shared/schemas/http-impl.js';
import type { InvokeResult, RecipeRun } from '../../../../shared/schemas/invocation.js';
import { useApi, useCoreTransport } from '../../../api/context.js';
import { Tester } from '../../tester/Tester.js';
import { ArgumentForm } from '../../../components/ArgumentForm.js';
import { JsonEditor } from '../../../components/monaco/JsonEditor.js';
import { useEffectiveImpl, useSecretNames, useTool } from '../../../queries/tools.js';
import { AgentFields } from './AgentFields.js';
import { ScriptFields } from './ScriptFields.js';
import { RecipeFields } from './recipe/RecipeFields.js';
import { CurlImportDialog } from './CurlImportDialog.js';
import { HttpRequestFields } from './HttpRequestFields.js';
import { SchemaEditor } from './SchemaEditor.js';
import { placeholderHints } from './placeholder-hints.js';
import { asSentence } from '../../../components/issue-text.js';
import { EditorFooter } from './EditorFooter.js';
import { issuesOf } from '../../../components/ErrorLine.js';
import { documentText, draftFrom, parseProblem, setPath, textOf, toolBody, type Draft } from './draft.js';
import { useToolDraft } from './use-tool-draft.js';
import { useLeaveGuard } from '../../../state/leave-guard.js';
import { CheckField, ListField, SelectField, TextField, type FieldContext } from './EditorFields.js';

type Issue = { path: string; message: string };


/** The kinds of tool a person writes here, in the order they are offered (MCP tools come from their server). */
const TOOL_KINDS = ['http', 'script', 'recipe', 'agent', 'local'] as const;
/** The file's own name, the same in every language. */
const DOCUMENT_NAME = 'tool.json';
/** Each new tool's draft is its own: its tester runs are not the next new tool's. */
let newDraftsOpened = 0;

/** The tool.json typed in the JSON tab as a draft, or null while it is not a JSON object. */
function documentFrom(text: string): Draft | null {
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Draft) : null;
  } catch {
    return null;
  }
}

interface ToolEditorProps {
  bundleID: string;
  /** The saved tool this draft starts from; null for a new tool. */
  base: ToolView | null;
  /** A new tool's first draft, made elsewhere (a recipe from a chat's calls); an HTTP tool's blank form otherwise. */
  startDraft?: Record<string, unknown>;
  onClose: () => void;
  onSaved: (address: { bundleID: string; slug: string; version: string }) => void;
}

/**
 * The "Tool editor" region: a form for the common fields and the HTTP
 * request, Monaco editors for argSchema, outputSchema and the whole
 * document, checked live by the store's own rules (tools.validate).
 * Versions are immutable once saved: an existing tool is saved as a new version.
 */
export function ToolEditor({ bundleID, base: liveBase, startDraft, onClose, onSaved }: ToolEditorProps) {
  const { t } = useTranslation();
  // The tool as it was when editing began; the live query moves on with the disk.
  const [base, setBase] = useState(liveBase);
  const [newDraftNumber] = useState(() => ++newDraftsOpened);
  const api = useApi();
  const transport = useCoreTransport();
  const { draft, setDraft, setDraftOrType, updateDraft, setDocumentText, replaceDraft, slugFor, revision, typed, blockers, setTyped, dirty, touch, isShown, showEveryProblem } = useToolDraft(base, startDraft);
  const [tab, setTab] = useState<'form' | 'json'>('form');
  const [issues, setIssues] = useState<Issue[]>([]);
  const [saving, setSaving] = useState(false);
  const [conflictDismissed, setConflictDismissed] = useState(false);
  const setUnsaved = useLeaveGuard((state) => state.setUnsaved);
  const what = base ? t('editor.unsavedVersion', { name: base.displayName }) : t('editor.unsavedNew');
  useEffect(() => {
    setUnsaved(dirty ? what : null);
  }, [dirty, what, setUnsaved]);
  useEffect(() => () => setUnsaved(null), [setUnsaved]);
  useEffect(() => {
    if (!dirty) return;
    // Closing the window or reloading asks too.
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  const [curlOpen, setCurlOpen] = useState(false);
  const latest = useTool(base ? { bundleID, slug: base.slug, version: base.version } : null);
  const effectiveImpl = useEffectiveImpl(bundleID, draft.type === 'http' ? (draft.impl as HttpImpl) : undefined);
  const changedOnDisk = base !== null && latest.data?.status === 'valid' && latest.data.modifiedAt !== base.modifiedAt && !conflictDismissed;

  const problemsOf = useCallback(
    (checked: Draft) =>
      api.tools
        .validate({ bundleID, ...(checked.slug ? { toolSlug: checked.slug } : {}), ...(checked.version ? { version: checked.version } : {}), tool: toolBody(checked) })
        .then((result) => result.issues),
    [api, bundleID],
  );
  useEffect(() => {
    // Only the newest draft's answer counts: an older one arriving late (a slow check of a half-typed template) would show problems already fixed.
    let current = true;
    const timer = setTimeout(() => {
      problemsOf(draft)
        .then((found) => {
          if (current) setIssues(found);
        })
        .catch(() => {});
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [problemsOf, draft]);

  const secretNames = useSecretNames();
  const hints = draft.type === 'http' ? placeholderHints(draft.impl, draft.argSchema, secretNames.data ?? new Set()) : [];
  const unparsable = blockers.map((pointer) => ({ path: pointer || '/', message: parseProblem(typed[pointer]!) ?? t('editor.notJsonShort') }));
  // What the store says about a field is about its last valid value: not shown while the field does not parse.
  const at = (list: readonly { path: string; message: string }[], pointer: string) =>
    pointer in typed || !isShown(pointer)
      ? []
      : list
          .filter((issue) => issue.path === pointer || issue.path.startsWith(`${pointer}/`))
          .map((issue) => (issue.path === pointer ? asSentence(issue.message) : `${issue.path.slice(pointer.length + 1)}: ${asSentence(issue.message)}`));
  const problemsAt = (pointer: string) => [...unparsable.filter((issue) => issue.path === pointer).map((issue) => issue.message), ...at(issues, pointer)];
  // A placeholder read from a secret that is not set yet: worth knowing, yet the tool saves (the secret can come later).
  const warningsAt = (pointer: string) => at(hints, pointer);
  const context: FieldContext = { draft, setDraft, updateDraft, problemsAt, warningsAt, touch, typed: (pointer) => typed[pointer], setTyped };
  const typeContext: FieldContext = { ...context, setDraft: setDraftOrType };
  const editorRef = useRef<HTMLElement>(null);
  // Opened by a button that is gone now (New version…, New tool): focus goes to the editor's title, not the page,
  // and Tab goes on from there into the form.
  const titleRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => titleRef.current?.focus(), []);
  // Save's "go to the first problem" runs once the problems it revealed are on screen.
  const [focusRequest, setFocusRequest] = useState(0);
  useEffect(() => {
    if (focusRequest > 0) editorRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusRequest]);

  const save = async () => {
    if (blockers.length > 0 || saving) return;
    setSaving(true);
    try {
      // The draft as it is now: the background check may be of keys typed a moment ago.
      const current = await problemsOf(draft);
      setIssues(current);
      if (current.length > 0) {
        // Not saved: every problem shows, and the first field with one takes the focus.
        showEveryProblem();
        setFocusRequest((count) => count + 1);
        return;
      }
      await api.tools.put({ bundleID, toolSlug: draft.slug, version: draft.version, tool: toolBody(draft) as never });
      // Saved: nothing is left to lose, so the step to the saved tool does not ask.
      setUnsaved(null);
      onSaved({ bundleID, slug: draft.slug, version: draft.version });
    } catch (error) {
      if (error instanceof ToolbeltError) {
        const reported = issuesOf(error);
        setIssues(reported.length ? reported : [{ path: error.code === 'conflict' ? '/version' : '/', message: error.message }]);
      } else {
        setIssues([{ path: '/', message: String(error) }]);
      }
    } finally {
      setSaving(false);
    }
  };

  const isHttp = draft.type === 'http';
  // A recipe's builder shows the values its steps had in the last trial run.
  const [lastRecipeRun, setLastRecipeRun] = useState<RecipeRun | undefined>(undefined);
  const argSchema = (draft.argSchema ?? {}) as Record<string, unknown>;
  // The JSON tab shows the whole document, so everything in it counts as seen.
  const shownIssues = tab === 'json' ? issues : issues.filter((issue) => isShown(issue.path));

  return (
    <section
      ref={editorRef}
      className="editor"
      aria-label={t('editor.region')}
      onKeyDown={(event) => {
        if ((event.ctrlKey || event.metaKey) && event.key === 's') {
          event.preventDefault();
          void save();
        }
      }}
    >
      <div className="editor__head">
        <h2 id="editor-title" ref={titleRef} tabIndex={-1} className="definition__title">
          {base ? t('editor.titleVersion', { name: base.displayName }) : t('editor.titleNew')}
        </h2>
        <button type="button" className="button button--small" onClick={() => setCurlOpen(true)}>
          {t('editor.fromCurl')}
        </button>
        {curlOpen ? (
          <CurlImportDialog
            onClose={() => setCurlOpen(false)}
            onUse={(fromCurl, parsed) => {
              setCurlOpen(false);
              const name = textOf(draft.displayName) || `${parsed.method} ${new URL(fromCurl.impl.urlTemplate.replace(/\$\{[^}]*\}/g, 'x')).pathname}`;
              replaceDraft({ ...draft, type: 'http', displayName: name, slug: slugFor(name), argSchema: fromCurl.argSchema, impl: fromCurl.impl });
              setTab('form');
            }}
          />
        ) : null}
        <div role="tablist" aria-label={t('editor.view')} className="tabs">
          <button
            type="button"
            role="tab"
            aria-selected={tab === 'form'}
            className="tab"
            // The form cannot show a document that does not parse; the text stays where it was typed.
            aria-disabled={'' in typed ? true : undefined}
            title={'' in typed ? t('editor.formBlocked') : undefined}
            onClick={() => {
              if ('' in typed) return;
              setTab('form');
            }}
          >
            {t('editor.form')}
          </button>
          <button
            type="button"
            role="tab"
            aria-selected={tab === 'json'}
            className="tab"
            onClick={() => {
              if (tab === 'json') return;
              // Fields that do not parse go into the document as typed.
              if (blockers.length > 0) setDocumentText(documentText(draft, typed), null);
              setTab('json');
            }}
          >
            <span translate="no">{DOCUMENT_NAME}</span>
          </button>
        </div>
      </div>
      {changedOnDisk ? (
        <div className="callout callout--warn" role="alert">
          <p>{t('editor.changedOnDisk')}</p>
          <button
            type="button"
            className="button"
            onClick={() => {
              const fresh = latest.data as ToolView;
              setBase(fresh);
              replaceDraft({ ...draftFrom(fresh), version: draft.version });
            }}
          >
            {t('editor.reload')}
          </button>{' '}
          <button type="button" className="button button--ghost" onClick={() => setConflictDismissed(true)}>
            {t('editor.keepMine')}
          </button>
        </div>
      ) : null}

      {tab === 'json' ? (
        <>
          <JsonEditor
            key={`doc-${revision}`}
            label={DOCUMENT_NAME}
            value={typed[''] ?? JSON.stringify(draft, null, 2)}
            schema={TOOL_DOCUMENT_JSON_SCHEMA}
            height={520}
            onChange={(text) => {
              // Kept as typed when it does not parse: Save waits, the form tab waits, nothing is lost.
              setDocumentText(text, documentFrom(text));
            }}
          />
          {'' in typed ? (
            <p className="field__error" role="alert">
              {unparsable[0]?.message}
            </p>
          ) : null}
        </>
      ) : (
        <div className="editor__form" key={`form-${revision}`}>
          <fieldset className="editor__group">
            <legend>{t('editor.basics')}</legend>
            {/* What kind of tool comes first: the rest of the form follows from it. */}
            <SelectField context={typeContext} path={['type']} label={t('editor.type')} options={TOOL_KINDS.map((kind) => ({ value: kind, label: t(`editor.typeName.${kind}`) }))} />
            <TextField context={context} path={['displayName']} label={t('editor.displayName')} />
            <div className="editor__row">
              <TextField context={context} path={['slug']} label={t('editor.slug')} mono help={t('editor.slugHelp')} />
              <TextField context={context} path={['version']} label={t('editor.version')} mono />
            </div>
            <TextField context={context} path={['description']} label={t('editor.description')} help={t('editor.descriptionHelp')} />
            <ListField context={context} path={['tags']} label={t('editor.tags')} help={t('editor.tagsHelp')} />
            <div className="editor__checks">
              <CheckField context={context} path={['isEnabled']} label={t('editor.enabled')} />
              <CheckField context={context} path={['requiresApproval']} label={t('editor.askFirst')} />
            </div>
          </fieldset>
          {isHttp ? (
            <HttpRequestFields context={context} />
          ) : draft.type === 'agent' ? (
            <AgentFields context={context} bundleID={bundleID} slug={textOf(draft.slug)} />
          ) : draft.type === 'script' ? (
            <ScriptFields context={context} revision={revision} />
          ) : draft.type === 'recipe' ? (
            <RecipeFields context={context} bundleID={bundleID} slug={textOf(draft.slug)} {...(lastRecipeRun ? { lastRun: lastRecipeRun } : {})} />
          ) : (
            <fieldset className="editor__group">
              <legend>{t('editor.function')}</legend>
              <TextField context={context} path={['impl', 'func']} label={t('editor.functionName')} mono help={t('editor.functionHelp')} />
            </fieldset>
          )}
          <fieldset className="editor__group">
            <legend>{t('editor.arguments')}</legend>
            {/* A recipe's arguments are its inputs form; the schema is made from it (and shown in the JSON tab). */}
            {draft.type === 'recipe' ? null : (
            <SchemaEditor
              key={`args-${revision}`}
              field="argSchema"
              value={draft.argSchema}
              typed={typed['/argSchema']}
              problems={problemsAt('/argSchema')}
              onTyped={(text) => setTyped('/argSchema', text)}
              onChange={(parsed) => updateDraft((current) => setPath(current, ['argSchema'], parsed))}
            />
            )}
            <h3 className="subhead">{t('editor.previewTitle')}</h3>
            <div className="editor__preview">
              <ArgumentForm key={JSON.stringify(argSchema)} name={t('editor.previewName', { name: textOf(draft.displayName) || t('editor.theTool') })} schema={argSchema} submitLabel={t('editor.previewOnly')} onSubmit={() => {}} />
            </div>
          </fieldset>
          <fieldset className="editor__group">
            <legend>{t('editor.output')}</legend>
            <SchemaEditor
              key={`output-${revision}`}
              field="outputSchema"
              height={160}
              value={draft.outputSchema}
              typed={typed['/outputSchema']}
              problems={problemsAt('/outputSchema')}
              onTyped={(text) => setTyped('/outputSchema', text)}
              onChange={(parsed) => updateDraft((current) => setPath(current, ['outputSchema'], parsed))}
            />
          </fieldset>
        </div>
      )}

      {/* Mounted while the draft has problems too: a run under way (a recipe's, minutes long) keeps its progress and result. */}
      <Tester
        key={JSON.stringify(argSchema)}
        target={{
          // Each tool's drafts have their own runs: a new tool's are not another tool's.
          key: `draft/${bundleID}/${base ? base.slug : `new-${newDraftNumber}`}`,
          name: t('editor.draftName', { name: textOf(draft.displayName) || t('editor.draft') }),
          argSchema,
          ...(isHttp && effectiveImpl ? { impl: effectiveImpl } : {}),
          run: async (args, signal, { resume, progressId }) =>
            (await transport.invoke('tools.try', { bundleID, tool: toolBody(draft), args, trace: true, progressId, ...(resume ? { resume } : {}) }, { signal })) as InvokeResult,
          onResult: (result) => {
            if (result.recipe) setLastRecipeRun(result.recipe);
          },
          ...(issues.length > 0 || blockers.length > 0 ? { waits: t('editor.testerWaits') } : {}),
        }}
      />

      <EditorFooter
        blockers={blockers}
        issues={issues}
        shownIssues={shownIssues}
        hints={hints}
        jsonTab={tab === 'json'}
        saving={saving}
        base={base}
        onSave={() => void save()}
        onCancel={onClose}
      />
    </section>
  );
}
