import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PersonFile } from '../../../../shared/schemas/person-file.js';
import { base64Text } from '../../../components/base64.js';
import { saveBase64File } from '../../../components/download.js';
import { ErrorLine, errorMessage } from '../../../components/ErrorLine.js';
import { Modal } from '../../../components/Modal.js';
import { usePersonFile } from '../../../queries/chats.js';
import { fileSize } from './attach-files.js';
import { FileBadge } from './PendingFiles.js';

const dataUrl = (file: { mediaType: string; dataBase64: string }) => `data:${file.mediaType};base64,${file.dataBase64}`;

/** One sent file: a picture's thumbnail, or its kind; a click opens it whole. */
function SentFile({ chatId, file }: { chatId: string; file: PersonFile }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  // A picture is read to show its thumbnail; other files only once opened.
  const loaded = usePersonFile(chatId, file.sha256, file.kind === 'picture' || open);
  const preview = file.kind === 'picture' && loaded.data ? dataUrl(loaded.data) : undefined;
  return (
    <li>
      <button type="button" className="attachment-chip file-chip file-chip--sent" aria-label={t('files.open', { name: file.name })} onClick={() => setOpen(true)}>
        <FileBadge kind={file.kind} previewUrl={preview} />
        <span className="attachment-chip__title" translate="no">
          {file.name}
        </span>
        <span className="muted">{fileSize(file.bytes)}</span>
      </button>
      {open ? (
        <Modal title={file.name} wide onDismiss={() => setOpen(false)}>
          {loaded.isError ? <ErrorLine message={errorMessage(loaded.error, t('files.cannotOpen'))} /> : null}
          {loaded.data && file.kind === 'picture' ? <img className="file-view__picture" src={dataUrl(loaded.data)} alt={file.name} /> : null}
          {loaded.data && file.kind === 'text' ? (
            <pre className="file-view__text" translate="no" tabIndex={0}>
              {base64Text(loaded.data.dataBase64)}
            </pre>
          ) : null}
          {loaded.data && file.kind === 'pdf' ? (
            <p>
              <button type="button" className="button" onClick={() => saveBase64File(file.name, loaded.data.dataBase64, file.mediaType)}>
                {t('files.savePdf')}
              </button>
            </p>
          ) : null}
          <div className="row">
            <button type="button" className="button" onClick={() => setOpen(false)}>
              {t('files.close')}
            </button>
          </div>
        </Modal>
      ) : null}
    </li>
  );
}

/** The person's files under their message. */
export function SentFiles({ chatId, files }: { chatId: string; files: readonly PersonFile[] }) {
  const { t } = useTranslation();
  return (
    <ul className="attachments attachments--sent" aria-label={t('files.attached')}>
      {files.map((file) => (
        <SentFile key={file.sha256} chatId={chatId} file={file} />
      ))}
    </ul>
  );
}
