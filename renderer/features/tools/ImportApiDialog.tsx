import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { v7 as uuidv7 } from 'uuid';
import type { ImportPreview, ImportResult, ImportSource } from '../../../shared/schemas/imports.js';
import { useApi } from '../../api/context.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { FilePicker } from '../../components/FilePicker.js';
import { CancelAnd, Modal } from '../../components/Modal.js';
import { useBundles, useStoreMutation } from '../../queries/tools.js';
import { ArchiveImport } from './ArchiveImport.js';
import { applyImport } from './import-apply.js';
import { ImportConsent, NO_CONSENT, secretsToSet, type Consent } from './ImportConsent.js';

type SourceKind = 'file' | 'paste' | 'url';

const STATUS_LABEL = { new: 'importApi.status.new', changed: 'importApi.status.changed', same: 'importApi.status.same' } as const;
const SOURCE_LABEL = { file: 'importApi.kind.file', paste: 'importApi.kind.paste', url: 'importApi.kind.url' } as const;

/** Examples in the empty fields: values, the same in every language. */
const EXAMPLES = { text: 'openapi: 3.1.0 …', url: 'https://api.example.com/openapi.json', baseUrl: 'https://api.example.com/v1' };

/**
 * From an API description to tools: read it (a file, pasted text or a
 * URL), see every operation with the tool it becomes, pick which, import
 * them in one step into a new bundle or the bundle they came from before.
 */
export function ImportApiDialog({ onClose, onImported }: { onClose: () => void; onImported: (bundleID: string) => void }) {
  const { t } = useTranslation();
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

  // The process that reads a description starts now, while the person finds theirs: the preview then does not wait
  // for it. Only a head start (kept two minutes): if it fails, the preview starts one itself and says what went wrong.
  useEffect(() => {
    api.imports.prepare({}).catch(() => undefined);
  }, [api]);

  const source: ImportSource | null = kind === 'url' ? (url.trim() ? { url: url.trim() } : null) : text.trim() ? { text, ...(fileName ? { fileName } : {}) } : null;
  const bundleID = target === 'new' ? newBundleID : target;
  const writable = (bundles.data?.bundles ?? []).filter((bundle) => bundle.status === 'valid' && !bundle.readOnly && !bundle.isBuiltIn);

  const read = useMutation({
    mutationFn: (params: { source: ImportSource; bundleID: string; baseUrl?: string }) => api.imports.openapiPreview(params),
    onSuccess: (plan: ImportPreview) => {
      // Another may follow (a different base URL, another description): its process starts while this one is read.
      api.imports.prepare({}).catch(() => undefined);
      setBaseUrl(plan.bundle.http?.baseUrl ?? '');
      setConsent(NO_CONSENT);
      // Everything that can be a tool and is not already there, as a start.
      setChosen(new Set(plan.operations.filter((operation) => operation.tool && operation.status !== 'same').map((operation) => operation.key)));
    },
  });
  const importTools = useStoreMutation((params: Parameters<typeof api.imports.openapiApply>[0] & { source: ImportSource }) => applyImport(api.imports.openapiApply, params));
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
    const newBaseUrl = baseUrl.trim() && (baseUrlChanged || !plan?.bundle.http?.baseUrl) ? baseUrl.trim() : null;
    importTools.mutate(
      {
        source,
        // A base URL typed after the preview means reading the description again, from its text.
        ...(plan?.previewId && !newBaseUrl ? { previewId: plan.previewId } : {}),
        bundleID,
        operations: [...chosen],
        ...(newBaseUrl ? { baseUrl: newBaseUrl } : {}),
        useSecrets: [...consent.useSecrets],
        allowHosts: hosts.filter((host) => consent.allowHosts.has(host)),
      },
      { onSuccess: setResult },
    );
  };

  if (result) {
    const missing = secretsToSet(plan?.secrets ?? [], consent);
    return (
      <Modal title={t('importApi.doneTitle')} onDismiss={onClose}>
        <p role="status">
          {result.written.length === 0
            ? t('importApi.nothingWritten')
            : t(result.unchanged ? 'importApi.writtenSomeSame' : 'importApi.written', {
                count: result.written.length,
                bundle: plan?.bundle.displayName ?? t('importApi.theBundle'),
                unchanged: result.unchanged,
              })}
        </p>
        {missing.length ? <p className="field__hint">{t('importApi.setSecrets', { count: missing.length, names: missing.join(', ') })}</p> : null}
        {plan?.bundle.http?.auth?.kind === 'oauth2' && plan.bundle.http.auth.flow === 'authorizationCode' ? (
          <p className="field__hint">{missing.length ? t('importApi.signsInThen') : t('importApi.signsIn')}</p>
        ) : null}
        <div className="modal__actions">
          <button type="button" className="button button--primary" autoFocus onClick={() => onImported(result.bundleID)}>
            {t('importApi.showTools')}
          </button>
        </div>
      </Modal>
    );
  }

  return (
    <Modal title={t('importApi.title')} wide onDismiss={onClose} initialFocus={firstField} description={t('importApi.description')}>
      <form className="import-api" aria-label={t('importApi.form')} onSubmit={readDescription}>
        <fieldset className="import-api__source">
          <legend className="field__label">{t('importApi.legend')}</legend>
          <div className="segmented" role="radiogroup" aria-label={t('importApi.where')}>
            {(Object.keys(SOURCE_LABEL) as SourceKind[]).map((option) => (
              <label key={option} className="segmented__option">
                <input type="radio" name={`${id}-kind`} checked={kind === option} onChange={() => setKind(option)} />
                <span>{t(SOURCE_LABEL[option])}</span>
              </label>
            ))}
          </div>
          {kind === 'file' ? (
            <FilePicker
              ref={firstField as React.RefObject<HTMLInputElement>}
              label={t('importApi.file')}
              accept=".json,.yaml,.yml,.zip,application/json,application/yaml,text/yaml,application/zip"
              chosen={fileName}
              onChoose={(file) => void chooseFile(file)}
            />
          ) : kind === 'paste' ? (
            <textarea className="input input--mono import-api__text" aria-label={t('importApi.text')} rows={8} value={text} placeholder={EXAMPLES.text} onChange={(event) => setText(event.target.value)} />
          ) : (
            <input className="input" type="url" aria-label={t('importApi.url')} placeholder={EXAMPLES.url} value={url} onChange={(event) => setUrl(event.target.value)} />
          )}
        </fieldset>
        {archive && kind === 'file' ? null : (
          <>
            <label className="field__label" htmlFor={`${id}-target`}>
              {t('importApi.into')}
            </label>
            <select id={`${id}-target`} className="input" value={target} onChange={(event) => setTarget(event.target.value)}>
              <option value="new">{t('importApi.newBundle')}</option>
              {writable.map((bundle) => (
                <option key={bundle.bundleID} value={bundle.bundleID}>
                  {t('importApi.update', { name: bundle.displayName })}
                </option>
              ))}
            </select>
            <div className="arg-form__actions">
              <button type="submit" className="button" disabled={!source || read.isPending}>
                {read.isPending ? t('importApi.reading') : plan ? t('importApi.readAgain') : t('importApi.read')}
              </button>
            </div>
          </>
        )}
        <ErrorLine message={read.isError ? errorMessage(read.error) : null} />
      </form>

      {archive && kind === 'file' ? (
        <ArchiveImport key={archive} base64={archive} onClose={onClose} onImported={onImported} />
      ) : plan ? (
        <section className="import-api__preview" aria-label={t('importApi.preview')}>
          <p className="import-api__summary">
            <strong>{plan.title}</strong> · {plan.format}
            {plan.apiVersion ? ` · ${t('importApi.version', { version: plan.apiVersion })}` : ''} · {t('importApi.operations', { count: plan.operations.length })}
          </p>
          <label className="field__label" htmlFor={`${id}-base`}>
            {t('importApi.baseUrl')}
          </label>
          <input id={`${id}-base`} className="input" value={baseUrl} placeholder={EXAMPLES.baseUrl} onChange={(event) => setBaseUrl(event.target.value)} />
          {!baseUrl.trim() ? <p className="field__hint">{t('importApi.noBaseUrl')}</p> : null}
          {plan.notes.map((note) => (
            <p key={note} className="field__hint">
              {note}
            </p>
          ))}
          <ImportConsent secrets={plan.secrets} hosts={hosts} consent={consent} onChange={setConsent} />
          <div className="import-api__toolbar">
            <input className="input" type="search" aria-label={t('importApi.filter')} placeholder={t('importApi.filterPlaceholder')} value={filter} onChange={(event) => setFilter(event.target.value)} />
            <button type="button" className="button button--small" onClick={() => setShown(true)}>
              {filter ? t('importApi.selectShown') : t('importApi.selectAll')}
            </button>
            <button type="button" className="button button--small" onClick={() => setShown(false)}>
              {t('importApi.selectNone')}
            </button>
          </div>
          <ul className="import-api__operations" aria-label={t('importApi.list')}>
            {shown.map((operation) => (
              <li key={operation.key} className={`import-api__operation${operation.tool ? '' : ' import-api__operation--skipped'}`}>
                <label>
                  <input type="checkbox" disabled={!operation.tool} checked={chosen.has(operation.key)} onChange={(event) => toggle(operation.key, event.target.checked)} aria-label={`${operation.key} → ${operation.slug}`} />
                  <span className="import-api__method">{operation.method}</span>
                  <span className="import-api__path">{operation.path}</span>
                  <span className="import-api__slug">{operation.slug}</span>
                  {operation.tool ? (
                    <span className={`badge${operation.status === 'same' ? ' badge--quiet' : ''}`}>{operation.status === 'changed' ? t('importApi.changedTo', { version: operation.nextVersion }) : t(STATUS_LABEL[operation.status])}</span>
                  ) : null}
                </label>
                {operation.skipped ? <p className="field__hint">{t('importApi.skipped', { reason: operation.skipped })}</p> : null}
                {operation.note ? <p className="field__hint">{operation.note}</p> : null}
              </li>
            ))}
          </ul>
          {plan.gone.length ? (
            <p className="field__hint">{t('importApi.gone', { tools: plan.gone.map((tool) => `${tool.slug} ${tool.version}`).join(', ') })}</p>
          ) : null}
          <ErrorLine message={importTools.isError ? errorMessage(importTools.error) : null} />
          <CancelAnd onCancel={onClose}>
            <button type="button" className="button button--primary" disabled={chosen.size === 0 || importTools.isPending} onClick={runImport}>
              {importTools.isPending ? t('importApi.importing') : t('importApi.import', { count: chosen.size })}
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
