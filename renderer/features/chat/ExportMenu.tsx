import { useTranslation } from 'react-i18next';
import { useEffect, useRef, useState } from 'react';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { chatToMarkdown, exportFileName, exportFilePaths } from '../../../shared/chat/chat-markdown.js';
import type { Chat } from '../../../shared/schemas/chat.js';
import { useApi } from '../../api/context.js';
import { base64Bytes } from '../../components/base64.js';
import { saveBytesFile, saveTextFile } from '../../components/download.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { DownloadIcon } from '../../components/icons.js';

type Api = ReturnType<typeof useApi>;

/** The chat as Markdown with the person's files beside it in `files/`, one archive (pictures and PDFs stored as they are). */
async function markdownWithFiles(api: Api, chat: Chat): Promise<Uint8Array> {
  const paths = exportFilePaths(chat);
  const entries: Zippable = {};
  for (const [sha256, where] of paths) {
    const file = await api.chats.file({ chatId: chat.id, sha256 });
    entries[where] = [base64Bytes(file.dataBase64), { level: 0 }];
  }
  entries[exportFileName(chat.title, 'md')] = strToU8(chatToMarkdown(chat, paths));
  return zipSync(entries);
}

/** Export the chat as Markdown (to read or share) or as JSON (the chat file as Toolbelt keeps it). */
export function ExportMenu({ chat }: { chat: Chat }) {
  const { t } = useTranslation();
  const api = useApi();
  const menu = useRef<HTMLDetailsElement>(null);
  const [packing, setPacking] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const hasFiles = chat.messages.some((message) => message.role === 'user' && message.files?.length);
  const close = () => menu.current?.removeAttribute('open');
  // A menu left open sat under the next dialog: it closes when a click or the focus goes anywhere else.
  useEffect(() => {
    const elsewhere = (event: Event) => {
      if (menu.current?.open && !menu.current.contains(event.target as Node | null)) close();
    };
    document.addEventListener('pointerdown', elsewhere, true);
    document.addEventListener('focusin', elsewhere, true);
    return () => {
      document.removeEventListener('pointerdown', elsewhere, true);
      document.removeEventListener('focusin', elsewhere, true);
    };
  }, []);
  const exportAs = (kind: 'md' | 'json') => {
    if (kind === 'md') saveTextFile(exportFileName(chat.title, 'md'), chatToMarkdown(chat), 'text/markdown');
    else saveTextFile(exportFileName(chat.title, 'json'), `${JSON.stringify(chat, null, 2)}\n`, 'application/json');
    close();
  };
  const exportWithFiles = async () => {
    setPacking(true);
    setFailure(null);
    try {
      saveBytesFile(exportFileName(chat.title, 'zip'), await markdownWithFiles(api, chat), 'application/zip');
      close();
    } catch (error) {
      setFailure(errorMessage(error, t('chat.exportFilesFailed')));
    } finally {
      setPacking(false);
    }
  };
  return (
    <details
      ref={menu}
      className="menu"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && menu.current?.open) {
          event.stopPropagation();
          close();
          menu.current.querySelector('summary')?.focus();
        }
      }}
    >
      <summary className="icon-button" aria-label={t('chat.exportChat')} title={t('chat.exportChat')}>
        <DownloadIcon size={17} />
      </summary>
      <div className="menu__items">
        <button type="button" className="menu__item" onClick={() => exportAs('md')}>
          {t('chat.exportMarkdown')}
        </button>
        <button type="button" className="menu__item" onClick={() => exportAs('json')}>
          {t('chat.exportJson')}
        </button>
        {hasFiles ? (
          <button type="button" className="menu__item" disabled={packing} onClick={() => void exportWithFiles()}>
            {packing ? t('chat.exportFilesPacking') : t('chat.exportWithFiles')}
          </button>
        ) : null}
        <ErrorLine message={failure} />
      </div>
    </details>
  );
}
