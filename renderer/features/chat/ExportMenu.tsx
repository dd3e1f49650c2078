import { useTranslation } from 'react-i18next';
import { useEffect, useRef } from 'react';
import { chatToMarkdown, exportFileName } from '../../../shared/chat/chat-markdown.js';
import type { Chat } from '../../../shared/schemas/chat.js';
import { saveTextFile } from '../../components/download.js';
import { DownloadIcon } from '../../components/icons.js';

/** Export the chat as Markdown (to read or share) or as JSON (the chat file as Toolbelt keeps it). */
export function ExportMenu({ chat }: { chat: Chat }) {
  const { t } = useTranslation();
  const menu = useRef<HTMLDetailsElement>(null);
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
      </div>
    </details>
  );
}
