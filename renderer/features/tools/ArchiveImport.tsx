import { useMutation } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { v7 as uuidv7 } from 'uuid';
import type { ArchivePreview } from '../../../shared/schemas/imports.js';
import { useApi } from '../../api/context.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { CancelAnd } from '../../components/Modal.js';
import { useStoreMutation } from '../../queries/tools.js';
import { HookList } from './HookList.js';
import { ImportConsent, NO_CONSENT, secretsToSet, type Consent } from './ImportConsent.js';

/** A bundle .zip someone shared: what it holds and the secrets it needs, then one Import that makes it a new bundle. */
export function ArchiveImport({ base64, onClose, onImported }: { base64: string; onClose: () => void; onImported: (bundleID: string) => void }) {
  const { t } = useTranslation();
  const api = useApi();
  const [bundleID] = useState(() => uuidv7());
  const read = useMutation({ mutationFn: () => api.bundles.importArchive({ base64, bundleID }) });
  const [consent, setConsent] = useState<Consent>(NO_CONSENT);
  const write = useStoreMutation(() => api.bundles.importArchive({ base64, bundleID, apply: true, useSecrets: [...consent.useSecrets], allowHosts: [...consent.allowHosts] }));
  const { mutate: readArchive } = read;
  useEffect(() => readArchive(), [readArchive, base64]);
  const preview: ArchivePreview | undefined = read.data;
  const missing = secretsToSet(preview?.secrets ?? [], consent);

  return (
    <section className="import-api__preview" aria-label={t('archive.holds')}>
      {read.isPending ? <p role="status">{t('archive.reading')}</p> : null}
      <ErrorLine message={read.isError ? errorMessage(read.error) : write.isError ? errorMessage(write.error) : null} />
      {preview ? (
        <>
          <p className="import-api__summary">
            <strong>{preview.bundle.displayName}</strong> {`· ${t('archive.toolCount', { count: preview.tools.length })}`}
          </p>
          {preview.bundle.description ? <p className="field__hint" dir="auto">{preview.bundle.description}</p> : null}
          <ul className="import-api__operations" aria-label={t('archive.tools')}>
            {preview.tools.map((tool) => (
              <li key={`${tool.slug}@${tool.version}`} className="import-api__operation">
                <span className="import-api__method">{tool.type}</span> <span className="import-api__path">{tool.displayName}</span> <span className="import-api__slug">{`${tool.slug}@${tool.version}`}</span>
              </li>
            ))}
          </ul>
          {preview.sameName.length ? <p className="field__hint">{t('archive.sameName', { name: preview.bundle.displayName, newName: preview.importedAs.displayName })}</p> : null}
          {preview.hooks?.length ? (
            <div className="callout callout--warn">
              <p>{t('archive.hooks', { count: preview.hooks.length })}</p>
              <HookList hooks={preview.hooks} />
            </div>
          ) : null}
          <ImportConsent secrets={preview.secrets} hosts={preview.hosts} consent={consent} onChange={setConsent} />
          {missing.length ? <p className="field__hint">{t('archive.setSecrets', { names: missing })}</p> : null}
        </>
      ) : null}
      <CancelAnd onCancel={onClose}>
        {preview ? (
          <button type="button" className="button button--primary" disabled={write.isPending} onClick={() => write.mutate(undefined, { onSuccess: (result) => onImported(result.bundleID ?? bundleID) })}>
            {write.isPending ? t('archive.importing') : t('archive.import')}
          </button>
        ) : null}
      </CancelAnd>
    </section>
  );
}
