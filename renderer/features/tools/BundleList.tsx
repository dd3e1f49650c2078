import { useTranslation } from 'react-i18next';
import { useState } from 'react';
import type { BundleView, InvalidBundleEntry } from '../../../shared/schemas/bundle.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { DownloadIcon, HookIcon, PencilIcon, PlugIcon, TrashIcon } from '../../components/icons.js';
import { saveBase64File } from '../../components/download.js';
import { useApi } from '../../api/context.js';
import { Switch } from '../../components/Switch.js';
import { useBundles, useDeleteBundle, usePatchBundle, usePutBundle, useRemoveBundleFolder } from '../../queries/tools.js';
import { useToolsUi } from '../../state/tools-ui.js';

/**
 * The chosen bundle's row is scrolled into the list's view when it becomes the chosen one (a bundle just made, or
 * one chosen from elsewhere): at 1000 px a new bundle landed below the fold. Only then: the person's own scrolling
 * is left alone.
 */
const showInList = (row: HTMLElement | null) => row?.scrollIntoView({ block: 'nearest' });
import { BundleConnectionDialog } from './BundleConnectionDialog.js';
import { BundleHooksDialog } from './BundleHooksDialog.js';
import { BundleForm } from './BundleForm.js';
import { bundleInputOf } from './bundle-input.js';
import { ImportApiDialog } from './ImportApiDialog.js';
import { McpServerForm } from './McpServerForm.js';
import { McpServerStatus } from './McpServerStatus.js';
import { SignInStrip } from './SignInStrip.js';
import { useMcpServers } from '../../queries/mcp.js';
import { PaneHeader } from '../../components/PaneHeader.js';

/** The "Bundles" region: every bundle with its switch; built-ins only have the switch. */
export function BundleList() {
  const { t } = useTranslation();
  const bundles = useBundles(true);
  const patch = usePatchBundle();
  const selected = useToolsUi((state) => state.bundleID);
  const select = useToolsUi((state) => state.selectBundle);
  const remove = useDeleteBundle();
  const restore = usePutBundle();
  // 'new', 'mcp', 'import', or the id of the bundle being renamed.
  const [form, setForm] = useState<string | null>(null);
  const mcpServers = useMcpServers();
  const serverOf = (bundleID: string) => mcpServers.data?.find((server) => server.bundleID === bundleID);
  const [deleted, setDeleted] = useState<BundleView | null>(null);
  const [connection, setConnection] = useState<BundleView | null>(null);
  // The bundle whose hooks are open, by id: its view follows what the core says after a save or a switch.
  const [hooksOf, setHooksOf] = useState<string | null>(null);
  const hooksBundle = bundles.data?.bundles.find((bundle): bundle is BundleView => bundle.status === 'valid' && bundle.bundleID === hooksOf);
  const api = useApi();
  const [exportProblem, setExportProblem] = useState<string | null>(null);
  const exportBundle = (bundle: BundleView) => {
    setExportProblem(null);
    api.bundles.export({ bundleID: bundle.bundleID }).then(
      (archive) => saveBase64File(archive.fileName, archive.base64, 'application/zip'),
      (error: unknown) => setExportProblem(t('bundles.exportFailed', { name: bundle.displayName, message: errorMessage(error) })),
    );
  };

  const deleteBundle = (bundle: BundleView) => {
    remove.mutate({ bundleID: bundle.bundleID }, { onSuccess: () => setDeleted(bundle) });
    if (selected === bundle.bundleID) select(null);
  };
  const undo = () => {
    if (!deleted) return;
    restore.mutate(bundleInputOf(deleted), { onSuccess: () => setDeleted(null) });
  };

  return (
    <section className="pane pane--bundles" aria-labelledby="bundles-title">
      <PaneHeader
        titleId="bundles-title"
        title={t('bundles.title')}
        action={
          <span className="pane__actions">
            <button type="button" className="button button--small" onClick={() => setForm('mcp')}>
              {t('bundles.addMcp')}
            </button>
            <button type="button" className="button button--small" onClick={() => setForm('import')}>
              {t('bundles.import')}
            </button>
            <button type="button" className="button button--small" onClick={() => setForm('new')}>
              {t('bundles.new')}
            </button>
          </span>
        }
      >
        {form === 'mcp' ? <McpServerForm onDone={() => setForm(null)} /> : null}
        <ErrorLine message={exportProblem} />
        {connection ? <BundleConnectionDialog bundle={connection} onClose={() => setConnection(null)} /> : null}
        {hooksBundle ? <BundleHooksDialog bundle={hooksBundle} onClose={() => setHooksOf(null)} /> : null}
        {form === 'import' ? (
          <ImportApiDialog
            onClose={() => setForm(null)}
            onImported={(bundleID) => {
              setForm(null);
              select(bundleID);
            }}
          />
        ) : null}
        {form === 'new' ? (
          <BundleForm
            onDone={(bundleID) => {
              setForm(null);
              if (bundleID) select(bundleID);
            }}
          />
        ) : null}
        {deleted ? (
          <div className="toast" role="status">
            {t('bundles.deleted', { name: deleted.displayName })}
            <button type="button" className="button button--ghost button--small" onClick={undo}>
              {t('versions.undo')}
            </button>
          </div>
        ) : null}
      </PaneHeader>
      {bundles.isError ? (
        <p className="pane__message error-text" role="alert">
          {t('bundles.couldNotLoad', { message: bundles.error.message })}
        </p>
      ) : (
        <ul className="list" aria-label={t('bundles.title')}>
          <li className="list__row">
            <button type="button" className="list__item" aria-current={selected === null ? 'true' : undefined} onClick={() => select(null)}>
              <span className="list__main">
                <span className="list__title">{t('bundles.all')}</span>
              </span>
            </button>
          </li>
          {bundles.data?.bundles.map((bundle) =>
            bundle.status === 'invalid' ? (
              <InvalidBundleRow key={bundle.bundleID} bundle={bundle} />
            ) : (
              <li key={bundle.bundleID} className="list__row">
                {form === bundle.bundleID ? (
                  <BundleForm existing={bundle} onDone={() => setForm(null)} />
                ) : (
                <button
                  type="button"
                  ref={selected === bundle.bundleID ? showInList : undefined}
                  className="list__item"
                  aria-current={selected === bundle.bundleID ? 'true' : undefined}
                  onClick={() => select(bundle.bundleID)}
                >
                  <span className="list__main">
                    <span className="list__title">
                      {/* A name reads in its own direction (bdi): "Weather (Open-Meteo)" keeps its brackets in Arabic. */}
                      <bdi>{bundle.displayName}</bdi>
                    </span>
                    <span className="list__meta">
                      {/* On the line under the name: beside it, the badge squeezed a long name into a word a line. */}
                      {bundle.isBuiltIn ? <span className="badge">{t('bundles.builtIn')}</span> : null}
                      {t('bundles.toolCount', { count: bundle.toolCount })}
                      {bundle.isEnabled ? '' : t('bundles.off')}
                      {bundle.hooksDigest && !bundle.hooksOn ? <span className="badge">{t('bundles.hooksOff')}</span> : null}
                    </span>
                  </span>
                </button>
                )}
                {/* The open bundle's own buttons, on a line of their own under it. */}
                {!bundle.readOnly && form !== bundle.bundleID && selected === bundle.bundleID ? (
                  <span className="list__actions">
                    <button type="button" className="icon-button" aria-label={t('bundles.exportLabel', { name: bundle.displayName })} title={t('bundles.exportHint')} onClick={() => exportBundle(bundle)}>
                      <DownloadIcon size={15} />
                    </button>
                    <button type="button" className="icon-button" aria-label={t('bundles.connectionLabel', { name: bundle.displayName })} title={t('bundles.connectionHint')} onClick={() => setConnection(bundle)}>
                      <PlugIcon size={15} />
                    </button>
                    <button type="button" className="icon-button" aria-label={t('bundles.hooksLabel', { name: bundle.displayName })} title={t('bundles.hooksHint')} onClick={() => setHooksOf(bundle.bundleID)}>
                      <HookIcon size={15} />
                    </button>
                    <button type="button" className="icon-button" aria-label={t('bundles.renameLabel', { name: bundle.displayName })} title={t('bundles.renameHint')} onClick={() => setForm(bundle.bundleID)}>
                      <PencilIcon size={15} />
                    </button>
                    <button type="button" className="icon-button" aria-label={t('bundles.deleteLabel', { name: bundle.displayName })} title={t('bundles.deleteHint')} onClick={() => deleteBundle(bundle)}>
                      <TrashIcon size={15} />
                    </button>
                  </span>
                ) : null}
                <Switch
                  checked={bundle.isEnabled}
                  label={t('bundles.enable', { name: bundle.displayName })}
                  onChange={(isEnabled) => patch.mutate({ bundleID: bundle.bundleID, isEnabled })}
                />
                {/* After the switch: it wraps onto its own line under the bundle's name and switch. */}
                {serverOf(bundle.bundleID) ? <McpServerStatus server={serverOf(bundle.bundleID)!} /> : null}
                {bundle.http?.auth?.kind === 'oauth2' && bundle.http.auth.flow === 'authorizationCode' ? <SignInStrip target={{ bundleID: bundle.bundleID }} name={bundle.displayName} /> : null}
              </li>
            ),
          )}
        </ul>
      )}
    </section>
  );
}

/**
 * A folder in the bundles folder that is not a working bundle, with the
 * reason. Where only Toolbelt's own files are in the way (an interrupted
 * create, a deleted bundle it kept), one click removes them.
 */
function InvalidBundleRow({ bundle }: { bundle: InvalidBundleEntry }) {
  const { t } = useTranslation();
  const removeFolder = useRemoveBundleFolder();
  const name = bundle.displayName ?? t('bundles.unfinished');
  return (
    <li className="list__row list__row--invalid">
      <div className="list__item list__item--static">
        <div className="list__main">
          <span className="list__title">
            <bdi>{name}</bdi>
          </span>
          <span className="bundle-problem">{bundle.invalidReason}</span>
          <code className="bundle-problem__file" title={bundle.file}>
            {bundle.file}
          </code>
          <ErrorLine message={removeFolder.isError ? errorMessage(removeFolder.error, t('bundles.removeFailed')) : null} />
        </div>
      </div>
      {bundle.removable ? (
        <button type="button" className="button button--small" aria-label={t('bundles.removeLabel', { id: bundle.bundleID })} title={t('bundles.removeHint')} disabled={removeFolder.isPending} onClick={() => removeFolder.mutate({ bundleID: bundle.bundleID })}>
          {t('bundles.remove')}
        </button>
      ) : null}
    </li>
  );
}
