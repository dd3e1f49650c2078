import { useMutation } from '@tanstack/react-query';
import { useId, useMemo, useRef, useState } from 'react';
import { v7 as uuidv7 } from 'uuid';
import type { ImportPreview, ImportResult, ImportSource } from '../../../shared/schemas/imports.js';
import { useApi } from '../../api/context.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { CancelAnd, Modal } from '../../components/Modal.js';
import { useBundles, useStoreMutation } from '../../queries/tools.js';
import { ArchiveImport } from './ArchiveImport.js';
import { ImportConsent, NO_CONSENT, secretsToSet, type Consent } from './ImportConsent.js';

type SourceKind = 'file' | 'paste' | 'url';

const STATUS_LABEL = { new: 'New', changed: 'Changed', same: 'Unchanged' } as const;

/**
 * From an API description to tools: read it (a file, pasted text or a
 * URL), see every operation with the tool it becomes, pick which, import
 * them in one step into a new bundle or the bundle they came from before.
 */
export function ImportApiDialog({ onClose, onImported }: { onClose: () => void; onImported: (bundleID: string) => void }) {
  const id = useId();
  const api = useApi();
  const bundles = useBundles(true);
  const [kind, setKind] = useState<SourceKind>('file');
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  /** A bundle .zip chosen instead of a description: its bytes, base64. */
  const [archive, setArchive] = useState<string | null>(null);
  const [url, setUrl] = useState('');
  const [target, setTarget] = useState('new');
  const [newBundleID] = useState(() => uuidv7());
  const [baseUrl, setBaseUrl] = useState('');
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [filter, setFilter] = useState('');
  const [result, setResult] = useState<ImportResult | null>(null);
  const [consent, setConsent] = useState<Consent>(NO_CONSENT);
  const firstField = useRef<HTMLElement>(null);

  const source: ImportSource | null = kind === 'url' ? (url.trim() ? { url: url.trim() } : null) : text.trim() ? { text, ...(fileName ? { fileName } : {}) } : null;
  const bundleID = target === 'new' ? newBundleID : target;
  const writable = (bundles.data?.bundles ?? []).filter((bundle) => bundle.status === 'valid' && !bundle.readOnly && !bundle.isBuiltIn);

  const read = useMutation({
    mutationFn: (params: { source: ImportSource; bundleID: string; baseUrl?: string }) => api.imports.openapiPreview(params),
    onSuccess: (plan: ImportPreview) => {
      setBaseUrl(plan.bundle.http?.baseUrl ?? '');
      setConsent(NO_CONSENT);
      // Everything that can be a tool and is not already there, as a start.
      setChosen(new Set(plan.operations.filter((operation) => operation.tool && operation.status !== 'same').map((operation) => operation.key)));
    },
  });
  const importTools = useStoreMutation((params: Parameters<typeof api.imports.openapiApply>[0]) => api.imports.openapiApply(params));
  const plan = read.data;
  const baseUrlChanged = plan !== undefined && baseUrl.trim() !== (plan.bundle.http?.baseUrl ?? '');
  // A base URL typed here replaces the description's: its host is the one to confirm (a re-import brings none).
  const hosts = useMemo(() => (plan && !plan.bundleID && baseUrlChanged ? hostsOf(baseUrl) : (plan?.hosts ?? [])), [plan, baseUrl, baseUrlChanged]);

  const shown = useMemo(() => {
    const words = filter.trim().toLowerCase();
    const operations = plan?.operations ?? [];
    return words ? operations.filter((operation) => `${operation.key} ${operation.slug} ${operation.displayName} ${operation.tags.join(' ')}`.toLowerCase().includes(words)) : operations;
  }, [plan, filter]);

  const readDescription = (event: React.FormEvent) => {
    event.preventDefault();
    if (source) read.mutate({ source, bundleID });
  };
  const chooseFile = async (file: File | undefined) => {
    if (!file) return;
    setFileName(file.name);
    if (/\.zip$/i.test(file.name)) {
      const bytes = new Uint8Array(await file.arrayBuffer());
      let binary = '';
      for (let index = 0; index < bytes.length; index += 0x8000) binary += String.fromCharCode(...bytes.subarray(index, index + 0x8000));
      setArchive(btoa(binary));
      setText('');
      return;
    }
    setArchive(null);
    setText(await file.text());
  };
  const toggle = (key: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(key);
      else next.delete(key);
      return next;
    });
  const setShown = (on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      for (const operation of shown) {
        if (!operation.tool) continue;
        if (on) next.add(operation.key);
        else next.delete(operation.key);
      }
      return next;
    });
  const runImport = () => {
    if (!source || chosen.size === 0) return;
    importTools.mutate(
      {
        source,
        bundleID,
        operations: [...chosen],
        ...(baseUrl.trim() && (baseUrlChanged || !plan?.bundle.http?.baseUrl) ? { baseUrl: baseUrl.trim() } : {}),
        useSecrets: [...consent.useSecrets],
        allowHosts: hosts.filter((host) => consent.allowHosts.has(host)),
      },
      { onSuccess: setResult },
    );
  };

  if (result) {
    const missing = secretsToSet(plan?.secrets ?? [], consent);
    return (
      <Modal title="API imported" onDismiss={onClose}>
        <p role="status">
          {result.written.length === 0
            ? 'Every chosen tool was already in the bundle as it is; nothing was written.'
            : `${result.written.length} ${result.written.length === 1 ? 'tool' : 'tools'} written into “${plan?.bundle.displayName ?? 'the bundle'}”${result.unchanged ? `; ${result.unchanged} unchanged` : ''}.`}
        </p>
        {missing.length ? (
          <p className="field__hint">
            Set {missing.length === 1 ? 'this secret' : 'these secrets'} in Settings → Secrets before you run them: {missing.join(', ')}.
          </p>
        ) : null}
        {plan?.bundle.http?.auth?.kind === 'oauth2' && plan.bundle.http.auth.flow === 'authorizationCode' ? (
          <p className="field__hint">It signs in in your browser: {missing.length ? 'then ' : ''}select Sign in under the bundle.</p>
        ) : null}
        <div className="modal__actions">
          <button type="button" className="button button--primary" autoFocus onClick={() => onImported(result.bundleID)}>
            Show the tools
          </button>
        </div>
      </Modal>
    );
  }

  return (
    <Modal title="Import tools" wide onDismiss={onClose} initialFocus={firstField} description="OpenAPI 3.0 or 3.1, Swagger 2.0 (JSON or YAML) or a Postman collection: each operation becomes an HTTP tool. Or a bundle someone exported (.zip).">
      <form className="import-api" aria-label="API description" onSubmit={readDescription}>
        <fieldset className="import-api__source">
          <legend className="field__label">Description</legend>
          <div className="segmented" role="radiogroup" aria-label="Where the description is">
            {(['file', 'paste', 'url'] as const).map((option) => (
              <label key={option} className="segmented__option">
                <input type="radio" name={`${id}-kind`} checked={kind === option} onChange={() => setKind(option)} />
                <span>{option === 'file' ? 'File' : option === 'paste' ? 'Paste' : 'URL'}</span>
              </label>
            ))}
          </div>
          {kind === 'file' ? (
            <label className="import-api__file">
                            <input
                ref={firstField as React.RefObject<HTMLInputElement>}
                type="file"
                accept=".json,.yaml,.yml,.zip,application/json,application/yaml,text/yaml,application/zip"
                aria-label="Description file"
                onChange={(event) => void chooseFile(event.target.files?.[0])}
              />
            </label>
          ) : kind === 'paste' ? (
            <textarea className="input input--mono import-api__text" aria-label="Description text" rows={8} value={text} placeholder="openapi: 3.1.0 …" onChange={(event) => setText(event.target.value)} />
          ) : (
            <input className="input" type="url" aria-label="Description URL" placeholder="https://api.example.com/openapi.json" value={url} onChange={(event) => setUrl(event.target.value)} />
          )}
        </fieldset>
        {archive && kind === 'file' ? null : (
          <>
            <label className="field__label" htmlFor={`${id}-target`}>
              Import into
            </label>
            <select id={`${id}-target`} className="input" value={target} onChange={(event) => setTarget(event.target.value)}>
              <option value="new">A new bundle</option>
              {writable.map((bundle) => (
                <option key={bundle.bundleID} value={bundle.bundleID}>
                  {bundle.displayName} (update it)
                </option>
              ))}
            </select>
            <div className="arg-form__actions">
              <button type="submit" className="button" disabled={!source || read.isPending}>
                {read.isPending ? 'Reading…' : plan ? 'Read again' : 'Read description'}
              </button>
            </div>
          </>
        )}
        <ErrorLine message={read.isError ? errorMessage(read.error) : null} />
      </form>

      {archive && kind === 'file' ? (
        <ArchiveImport key={archive} base64={archive} onClose={onClose} onImported={onImported} />
      ) : plan ? (
        <section className="import-api__preview" aria-label="What the import makes">
          <p className="import-api__summary">
            <strong>{plan.title}</strong> · {plan.format}
            {plan.apiVersion ? ` · version ${plan.apiVersion}` : ''} · {plan.operations.length} operations
          </p>
          <label className="field__label" htmlFor={`${id}-base`}>
            Base URL of the API
          </label>
          <input id={`${id}-base`} className="input" value={baseUrl} placeholder="https://api.example.com/v1" onChange={(event) => setBaseUrl(event.target.value)} />
          {!baseUrl.trim() ? <p className="field__hint">Without it, the tools cannot run: they have paths only.</p> : null}
          {plan.notes.map((note) => (
            <p key={note} className="field__hint">
              {note}
            </p>
          ))}
          <ImportConsent secrets={plan.secrets} hosts={hosts} consent={consent} onChange={setConsent} />
          <div className="import-api__toolbar">
            <input className="input" type="search" aria-label="Filter operations" placeholder="Filter by path, name or tag" value={filter} onChange={(event) => setFilter(event.target.value)} />
            <button type="button" className="button button--small" onClick={() => setShown(true)}>
              Select {filter ? 'shown' : 'all'}
            </button>
            <button type="button" className="button button--small" onClick={() => setShown(false)}>
              Select none
            </button>
          </div>
          <ul className="import-api__operations" aria-label="Operations">
            {shown.map((operation) => (
              <li key={operation.key} className={`import-api__operation${operation.tool ? '' : ' import-api__operation--skipped'}`}>
                <label>
                  <input type="checkbox" disabled={!operation.tool} checked={chosen.has(operation.key)} onChange={(event) => toggle(operation.key, event.target.checked)} aria-label={`${operation.key} → ${operation.slug}`} />
                    <span className="import-api__method">{operation.method}</span>
                  <span className="import-api__path">{operation.path}</span>
                  <span className="import-api__slug">{operation.slug}</span>
                  {operation.tool ? (
                    <span className={`badge${operation.status === 'same' ? ' badge--quiet' : ''}`}>{operation.status === 'changed' ? `Changed → ${operation.nextVersion}` : STATUS_LABEL[operation.status]}</span>
                  ) : null}
                </label>
                {operation.skipped ? <p className="field__hint">Cannot be imported: {operation.skipped}.</p> : null}
              </li>
            ))}
          </ul>
          {plan.gone.length ? (
            <p className="field__hint">
              No longer in the description (kept in the bundle): {plan.gone.map((tool) => `${tool.slug} ${tool.version}`).join(', ')}.
            </p>
          ) : null}
          <ErrorLine message={importTools.isError ? errorMessage(importTools.error) : null} />
          <CancelAnd onCancel={onClose}>
            <button type="button" className="button button--primary" disabled={chosen.size === 0 || importTools.isPending} onClick={runImport}>
              {importTools.isPending ? 'Importing…' : `Import ${chosen.size} ${chosen.size === 1 ? 'tool' : 'tools'}`}
            </button>
          </CancelAnd>
        </section>
      ) : (
        <CancelAnd onCancel={onClose} />
      )}
    </Modal>
  );
}

/** The host a base URL names, as allowed hosts are written; none for what is not a URL yet. */
function hostsOf(baseUrl: string): string[] {
  try {
    return [new URL(baseUrl.trim()).host.toLowerCase()];
  } catch {
    return [];
  }
}
