import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { McpbConfigField, McpbPreview } from '../../../shared/schemas/mcp-install.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { FilePicker } from '../../components/FilePicker.js';
import { Modal } from '../../components/Modal.js';
import { useMutation } from '@tanstack/react-query';
import { useApi, useCoreTransport, useTransportKind } from '../../api/context.js';
import BundleBodyWorker from './bundle-body-worker.js?worker';
import { fileAsBase64 } from '../../components/base64.js';
import { useMcpbInstall } from '../../queries/install.js';
import { useToolsUi } from '../../state/tools-ui.js';
import { useUiStore } from '../../state/ui.js';
import { InstallPlanView } from './InstallPlanView.js';

type Value = string | number | boolean | string[];

/** What the person typed, as the manifest's types: numbers as numbers, a list one per line. */
function valueOf(field: McpbConfigField, typed: string | boolean | undefined): Value | undefined {
  if (typed === undefined || typed === '') return undefined;
  if (field.type === 'boolean') return typed === true;
  if (typeof typed !== 'string') return undefined;
  if (field.multiple) return typed.split('\n').map((line) => line.trim()).filter(Boolean);
  return field.type === 'number' ? Number(typed) : typed;
}

const initialOf = (field: McpbConfigField): string | boolean | undefined =>
  field.default === undefined ? undefined : typeof field.default === 'boolean' ? field.default : Array.isArray(field.default) ? field.default.join('\n') : String(field.default);

/** The preview's JSON body, made in a worker (a 20 MB bundle is 27 MB of base64: the page never holds it as a string). */
function bundleBody(file: File): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const worker = new BundleBodyWorker();
    worker.onmessage = (event: MessageEvent<{ ok: true; body: Blob } | { ok: false; message: string }>) => {
      worker.terminate();
      if (event.data.ok) resolve(event.data.body);
      else reject(new Error(event.data.message));
    };
    worker.onerror = () => {
      worker.terminate();
      reject(new Error(file.name));
    };
    worker.postMessage(file);
  });
}

/** A bundle the person chose or dropped, previewed by the core; its bytes go as a body made off the page where the transport takes one. */
function useMcpbPreview() {
  const api = useApi();
  const transport = useCoreTransport();
  return useMutation({
    mutationFn: async (file: File): Promise<McpbPreview> => {
      if (transport.invokeWithBody) return (await transport.invokeWithBody('mcpb.preview', await bundleBody(file))) as McpbPreview;
      return api.mcpb.preview({ file: { name: file.name, dataBase64: await fileAsBase64(file) } });
    },
  });
}

/**
 * An MCP bundle (.mcpb): chosen, dropped or opened with the app. Its
 * preview says who made it, whether its signature holds, what it asks for
 * and exactly what it would run; Install puts it in Toolbelt's data folder,
 * off unless "Start it now" is ticked.
 */
export function McpbDialog({ file, preview: given, onClose }: { file?: File | undefined; preview?: McpbPreview | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const read = useMcpbPreview();
  const preview = given ?? read.data;
  const { mutate } = read;
  // The file it was opened with (dropped, or opened with the app) is read once.
  useEffect(() => {
    if (file) mutate(file);
  }, [file, mutate]);
  return (
    <Modal title={preview ? t('mcpb.titleOf', { name: preview.manifest.displayName }) : t('mcpb.title')} wide onDismiss={onClose}>
      {preview ? (
        <BundlePreview preview={preview} onClose={onClose} />
      ) : (
        <div className="install-dialog">
          <p className="muted">{t('mcpb.intro')}</p>
          <FilePicker label={t('mcpb.choose')} accept=".mcpb,.dxt" chosen={read.variables?.name ?? null} onChoose={(picked) => picked && read.mutate(picked)} />
          {read.isPending ? (
            <p role="status" className="muted">
              {t('mcpb.reading')}
            </p>
          ) : null}
          <ErrorLine message={read.isError ? errorMessage(read.error) : null} />
          <div className="arg-form__actions">
            <button type="button" className="button" onClick={onClose}>
              {t('common.cancel')}
            </button>
          </div>
        </div>
      )}
    </Modal>
  );
}

function BundlePreview({ preview, onClose }: { preview: McpbPreview; onClose: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const install = useMcpbInstall();
  const selectBundle = useToolsUi((state) => state.selectBundle);
  const goTo = useUiStore((state) => state.goTo);
  const [typed, setTyped] = useState<Record<string, string | boolean | undefined>>(() => Object.fromEntries(preview.userConfig.map((field) => [field.key, initialOf(field)])));
  const [startNow, setStartNow] = useState(false);
  const { manifest, signature } = preview;
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const userConfig = Object.fromEntries(preview.userConfig.flatMap((field) => {
      const value = valueOf(field, typed[field.key]);
      return value === undefined ? [] : [[field.key, value]];
    }));
    install.mutate(
      { previewId: preview.previewId, userConfig, enabled: startNow },
      {
        onSuccess: (server) => {
          onClose();
          goTo('tools');
          selectBundle(server.bundleID);
        },
      },
    );
  };
  const errors = preview.problems.filter((problem) => problem.level === 'error');
  const warnings = preview.problems.filter((problem) => problem.level === 'warning');
  return (
    <form className="install-dialog" onSubmit={submit} aria-label={t('mcpb.formLabel', { name: manifest.displayName })}>
      <p className="install-dialog__lead">
        {t('mcpb.byline', { version: manifest.version, author: manifest.author.name })}
        {' · '}
        <span className={`signature signature--${signature.status}`}>{t(`mcpb.signature.${signature.status}`, { publisher: signature.publisher ?? '' })}</span>
      </p>
      <p dir="auto">{manifest.description}</p>
      {errors.map((problem) => (
        <p key={problem.message} className="field__error" role="alert">
          {problem.message}
        </p>
      ))}
      {warnings.map((problem) => (
        <p key={problem.message} className="install-dialog__warning">
          {problem.message}
        </p>
      ))}
      <dl className="install-plan__facts">
        <dt>{t('mcpb.tools')}</dt>
        <dd>{manifest.tools.length ? manifest.tools.map((tool) => tool.name).join(', ') : manifest.toolsGenerated ? t('mcpb.toolsAtStart') : t('install.none')}</dd>
        {manifest.prompts.length ? (
          <>
            <dt>{t('mcpb.prompts')}</dt>
            <dd>{manifest.prompts.map((prompt) => prompt.name).join(', ')}</dd>
          </>
        ) : null}
        <dt>{t('mcpb.needs')}</dt>
        <dd>
          {[manifest.platforms.length ? manifest.platforms.join(', ') : t('mcpb.anySystem'), ...Object.entries(manifest.runtimes).map(([runtime, range]) => `${runtime} ${range}`)].join(' · ')}
        </dd>
        <dt>{t('mcpb.size')}</dt>
        <dd>{t('mcpb.files', { count: preview.files, size: Math.max(1, Math.round(preview.unpackedBytes / 1024)) })}</dd>
      </dl>
      {preview.userConfig.length ? (
        <fieldset className="install-dialog__settings">
          <legend className="field__label">{t('mcpb.settings')}</legend>
          {preview.userConfig.map((field) => (
            <ConfigField key={field.key} id={`${id}-${field.key}`} field={field} value={typed[field.key]} onChange={(value) => setTyped({ ...typed, [field.key]: value })} />
          ))}
        </fieldset>
      ) : null}
      <InstallPlanView plan={preview.plan} />
      <label className="checkbox">
        <input type="checkbox" checked={startNow} onChange={(event) => setStartNow(event.target.checked)} />
        <span>{t('mcpb.startNow')}</span>
      </label>
      <ErrorLine message={install.isError ? errorMessage(install.error) : null} />
      <div className="arg-form__actions">
        <button type="submit" className="button button--primary" disabled={!preview.installable || install.isPending}>
          {install.isPending ? t('mcpb.installing') : preview.plan.replaces ? t('mcpb.update') : t('mcpb.install')}
        </button>
        <button type="button" className="button" onClick={onClose}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}

function ConfigField({ id, field, value, onChange }: { id: string; field: McpbConfigField; value: string | boolean | undefined; onChange: (value: string | boolean) => void }) {
  const { t } = useTranslation();
  const api = useApi();
  // The desktop app has the system's picker, which gives a full path; a browser page cannot learn one.
  const canPick = useTransportKind() === 'ipc' && (field.type === 'directory' || field.type === 'file') && !field.multiple;
  const [pickProblem, setPickProblem] = useState<string | null>(null);
  const pick = () => {
    setPickProblem(null);
    api.app.pickPath({ kind: field.type === 'file' ? 'file' : 'directory', title: field.title }).then(
      ({ path }) => path !== null && onChange(path),
      (error: unknown) => setPickProblem(errorMessage(error)),
    );
  };
  const help = `${id}-help`;
  if (field.type === 'boolean') {
    return (
      <label className="checkbox">
        <input type="checkbox" checked={value === true} aria-describedby={help} onChange={(event) => onChange(event.target.checked)} />
        <span>{field.title}</span>
        <span id={help} className="muted field__help">
          {field.description}
        </span>
      </label>
    );
  }
  const text = typeof value === 'string' ? value : '';
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {field.title}
        {field.required ? <span aria-hidden="true"> *</span> : null}
        {field.sensitive ? <span className="badge">{t('mcpb.keptSecret')}</span> : null}
      </label>
      {field.multiple ? (
        <textarea id={id} className="input input--mono" rows={3} dir="ltr" required={field.required} aria-describedby={help} value={text} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input
          id={id}
          className="input"
          dir="ltr"
          required={field.required}
          aria-describedby={help}
          type={field.sensitive ? 'password' : field.type === 'number' ? 'number' : 'text'}
          autoComplete="off"
          spellCheck={false}
          min={field.min}
          max={field.max}
          placeholder={field.type === 'directory' || field.type === 'file' ? t('mcpb.fullPath') : undefined}
          value={text}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {canPick ? (
        <button type="button" className="button button--small" aria-label={t('mcpb.chooseLabel', { name: field.title })} onClick={pick}>
          {t('mcpb.choosePath')}
        </button>
      ) : null}
      <ErrorLine message={pickProblem} />
      <p id={help} className="muted field__help">
        {field.description}
      </p>
    </div>
  );
}
