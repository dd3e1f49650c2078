import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { PaperclipIcon } from '../../../components/icons.js';
import { useComposerFiles, type PendingFile } from '../../../state/composer-files.js';
import { fileSize } from './attach-files.js';

const NO_FILES: PendingFile[] = [];

/** The picture as a small preview (its place kept while it is made), or what kind of file it is. */
export function FileBadge({ kind, previewUrl, preparing }: { kind: PendingFile['kind']; previewUrl?: string | undefined; preparing?: boolean | undefined }) {
  const { t } = useTranslation();
  if (previewUrl) return <img className="file-chip__thumb" src={previewUrl} alt="" />;
  if (preparing && kind === 'picture') return <span className="file-chip__thumb file-chip__thumb--waiting" aria-hidden="true" />;
  return <span className="badge badge--quiet">{t(`files.kind.${kind}`)}</span>;
}

/** The files waiting in a chat's message box, each with its size and a button that takes it out. */
export function PendingFiles({ chatId, noPictures }: { chatId: string; noPictures: boolean }) {
  const { t } = useTranslation();
  const files = useComposerFiles((state) => state.files[chatId]) ?? NO_FILES;
  const remove = useComposerFiles((state) => state.remove);
  if (files.length === 0) return null;
  return (
    <>
      <ul className="attachments" aria-label={t('files.attached')}>
        {files.map((file) => (
          <li key={file.id} className="attachment-chip file-chip">
            <FileBadge kind={file.kind} previewUrl={file.previewUrl} preparing={file.preparing} />
            <span className="attachment-chip__title" translate="no">
              {file.name}
            </span>
            <span className="muted">{file.preparing ? t('files.preparing') : fileSize(file.bytes)}</span>
            <button type="button" className="icon-button icon-button--small" aria-label={t('common.removeItem', { item: file.name })} onClick={() => remove(chatId, file.id)}>
              ×
            </button>
          </li>
        ))}
      </ul>
      {noPictures && files.some((file) => file.kind === 'picture') ? (
        <p className="composer__problem" role="status">
          {t('files.noPictures')}
        </p>
      ) : null}
    </>
  );
}

/** The paper clip: picks files from the disk, as pasting and dropping them do. */
export function AttachButton({ onFiles }: { onFiles: (files: File[]) => void }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className="icon-button composer__plus" aria-label={t('files.attach')} title={t('files.attachHint')} onClick={() => input.current?.click()}>
        <PaperclipIcon size={18} />
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        tabIndex={-1}
        aria-label={t('files.attach')}
        accept="image/png,image/jpeg,image/gif,image/webp,image/heic,.heic,application/pdf,text/*,.csv,.json,.md,.ts,.tsx,.js,.py,.yaml,.yml,.xml,.log"
        onChange={(event) => {
          const picked = [...(event.target.files ?? [])];
          // The same file may be picked again after it was taken out.
          event.target.value = '';
          onFiles(picked);
        }}
      />
    </>
  );
}
