import { useTranslation } from 'react-i18next';
import { i18n } from '../../i18n/index.js';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { Chat, MessageAttachment } from '../../../shared/schemas/chat.js';
import { PlusIcon, SendIcon, StopIcon } from '../../components/icons.js';
import { shortcutLabel } from '../../components/Kbd.js';
import { useApi } from '../../api/context.js';
import { useCancelChat, useRunTool, useSendMessage } from '../../queries/chats.js';
import { useChatUi } from '../../state/chat-ui.js';
import { parseQuickRun, quickRunArgs, typedSlug } from '../palette/quick-run.js';
import { QuickRunSuggestions, useQuickRunSuggestions } from '../palette/QuickRunSuggestions.js';
import type { ToolView } from '../../../shared/schemas/tool.js';
import { errorMessage } from '../../components/ErrorLine.js';
import { latestOf } from '../../components/VersionBadge.js';
import { useCapabilities } from '../../queries/providers.js';
import { useComposerFiles, type PendingFile } from '../../state/composer-files.js';
import { useAttachFiles } from './files/attach-files.js';
import { warmPictureWorker } from './files/read-person-file.js';
import { AttachButton, PendingFiles } from './files/PendingFiles.js';

const NO_ATTACHMENTS: MessageAttachment[] = [];
const NO_FILES: PendingFile[] = [];

function sizeLabel(text: string): string {
  return text.length < 1000 ? i18n.t('composer.chars', { count: text.length }) : i18n.t('composer.kiloChars', { value: (text.length / 1000).toLocaleString(i18n.language, { maximumFractionDigits: 1 }) });
}

/**
 * The message box: Enter sends, Shift+Enter breaks the line, Ctrl/Cmd+K or
 * the + button opens the tool palette. A "+" at the start suggests tools
 * inline as the slug is typed (the text stays in the box), and
 * `+slug key=value` runs a tool at once when its arguments are complete;
 * Esc on the suggestions, or "\+", sends a plain "+".
 */
export function Composer({ chat }: { chat: Chat }) {
  const { t } = useTranslation();
  const api = useApi();
  // A chat link's text goes into the box of the chat it started, for the person to read and send: taken when this
  // box opens with it waiting, or when it comes while the box is open.
  const [text, setText] = useState(() => useChatUi.getState().composerPrefill ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const take = (prefill: string | null, typed: boolean) => {
      if (prefill === null) return;
      if (typed) setText(prefill);
      useChatUi.getState().prefillComposer(null);
      box.current?.focus();
    };
    take(useChatUi.getState().composerPrefill, false);
    return useChatUi.subscribe((state) => take(state.composerPrefill, true));
  }, []);
  const send = useSendMessage();
  const cancel = useCancelChat();
  const runTool = useRunTool();
  const openPalette = useChatUi((state) => state.openPalette);
  const attachments = useChatUi((state) => state.attachments[chat.id]) ?? NO_ATTACHMENTS;
  const files = useComposerFiles((state) => state.files[chat.id]) ?? NO_FILES;
  const clearFiles = useComposerFiles((state) => state.clear);
  const fileProblem = useComposerFiles((state) => state.problems[chat.id]) ?? null;
  const setFileProblem = useComposerFiles((state) => state.setProblem);
  const attachFiles = useAttachFiles(chat.id);
  const noPictures = useCapabilities(chat.providerId, chat.model).data?.images === 'no';
  const nothingAttached = attachments.length === 0 && files.length === 0;
  // A picture still being made smaller holds the message back until it is ready.
  const preparing = files.some((file) => file.preparing);
  const detach = useChatUi((state) => state.detach);
  const clearAttachments = useChatUi((state) => state.clearAttachments);
  const paletteOpen = useChatUi((state) => state.paletteOpen);
  const running = chat.status === 'running';
  const waiting = chat.status === 'awaiting_approval' || chat.status === 'awaiting_user';
  // A leading "+" suggests tools inline; Esc makes it a plain "+" for this message.
  const [plainPlus, setPlainPlus] = useState(false);
  const slug = plainPlus ? null : typedSlug(text);
  const suggestions = useQuickRunSuggestions(slug);
  const suggested = slug !== null ? (suggestions.data ?? []) : [];
  const [activeIndex, setActive] = useState(0);
  const active = Math.min(activeIndex, Math.max(0, suggested.length - 1));
  const suggestId = useId();
  const complete = (tool: ToolView) => {
    setText(`+${tool.slug} `);
    setActive(0);
  };

  useEffect(() => {
    if (!paletteOpen) box.current?.focus();
  }, [paletteOpen, chat.id]);

  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      // Ctrl+K is the whole app's (usePaletteShortcut).
      if (event.key === 'Escape' && running && !document.querySelector('dialog[open]')) {
        cancel.mutate({ chatId: chat.id });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [running, cancel, chat.id]);

  async function quickRun(input: string): Promise<boolean> {
    const parsed = parseQuickRun(input);
    if (!parsed) return false;
    const { tools } = await api.tools.search({ q: parsed.slug, pageSize: 20 });
    // Two versions of one tool: "+slug" runs the latest.
    const tool = latestOf(tools.filter((entry): entry is ToolView => entry.status === 'valid' && entry.slug === parsed.slug && entry.isEnabled && entry.available));
    if (!tool || tool.status !== 'valid') {
      openPalette(parsed.slug);
      return true;
    }
    const { args, missing } = quickRunArgs(tool.argSchema, parsed.pairs);
    if (missing.length > 0) {
      openPalette(parsed.slug);
      return true;
    }
    await runTool.mutateAsync({ chatId: chat.id, bundleID: tool.bundleID, slug: tool.slug, version: tool.version, args });
    return true;
  }

  async function submit() {
    let content = text.trim();
    if ((!content && nothingAttached) || running || waiting || preparing) return;
    setProblem(null);
    setFileProblem(chat.id, null);
    try {
      if (nothingAttached && !plainPlus && content.startsWith('+') && (await quickRun(content))) {
        setText('');
        return;
      }
      // "\+" at the start sends a literal "+" too.
      if (content.startsWith('\\+')) content = content.slice(1);
      const sent = [...attachments, ...files.map(({ name, mediaType, dataBase64 }) => ({ kind: 'file' as const, name, mediaType, dataBase64 }))];
      await send.mutateAsync({ chatId: chat.id, content, ...(sent.length ? { attachments: sent } : {}) });
      setText('');
      setPlainPlus(false);
      clearAttachments(chat.id);
      clearFiles(chat.id);
    } catch (error) {
      setProblem(errorMessage(error, t('composer.sendFailed')));
    }
  }

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (slug !== null && !event.nativeEvent.isComposing) {
      const choose = suggested[active];
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        setActive(event.key === 'ArrowDown' ? Math.min(suggested.length - 1, active + 1) : Math.max(0, active - 1));
        return;
      }
      if ((event.key === 'Tab' || (event.key === 'Enter' && !event.shiftKey)) && choose && !event.altKey) {
        event.preventDefault();
        complete(choose);
        return;
      }
      if (event.key === 'Escape') {
        // Only the suggestions close; a running answer is stopped with a second Esc.
        event.preventDefault();
        event.stopPropagation();
        event.nativeEvent.stopImmediatePropagation();
        setPlainPlus(true);
        return;
      }
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    }
  };

  return (
    <div className="composer">
      {problem || fileProblem ? (
        <p className="composer__problem" role="alert">
          {problem ?? fileProblem}
        </p>
      ) : null}
      {!chat.model ? (
        <p className="composer__problem" role="status">
          {t('composer.pickModel')}
        </p>
      ) : null}
      {attachments.length ? (
        <ul className="attachments" aria-label={t('composer.attached')}>
          {attachments.map((attachment, index) => (
            <li key={`${attachment.kind}-${attachment.ref}-${index}`} className="attachment-chip">
              <span className="badge badge--quiet">{attachment.kind === 'resource' ? t('chat.resource') : t('chat.prompt')}</span>
              <span className="attachment-chip__title" title={`${attachment.server} · ${attachment.ref}`}>
                {attachment.title}
              </span>
              <span className="muted">
                {sizeLabel(attachment.text)}
                {attachment.images ? ` · ${t('chat.pictures', { count: attachment.images.length })}` : ''}
              </span>
              <button type="button" className="icon-button icon-button--small" aria-label={t('common.removeItem', { item: attachment.title })} onClick={() => detach(chat.id, index)}>
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <PendingFiles chatId={chat.id} noPictures={noPictures} />
      {slug !== null && suggestions.data ? <QuickRunSuggestions id={suggestId} tools={suggested} active={active} onChoose={complete} /> : null}
      <div className="composer__row">
        <button type="button" className="icon-button composer__plus" aria-label={t('composer.runTool')} title={t('composer.runToolShortcut', { shortcut: shortcutLabel('K') })} onClick={() => openPalette()}>
          <PlusIcon size={18} />
        </button>
        <AttachButton onFiles={(picked) => void attachFiles(picked)} />
        <textarea
          ref={box}
          className="composer__input"
          aria-label={t('composer.message')}
          aria-autocomplete="list"
          aria-controls={slug !== null ? suggestId : undefined}
          aria-activedescendant={slug !== null && suggested[active] ? `${suggestId}-${active}` : undefined}
          placeholder={waiting ? t('composer.answerDialog') : t('composer.placeholder')}
          rows={Math.min(8, Math.max(1, text.split('\n').length))}
          value={text}
          onKeyDown={onKeyDown}
          // A picture pasted next shows its preview sooner with its worker already started.
          onFocus={warmPictureWorker}
          onPaste={(event) => {
            // A pasted screenshot or copied files are attached; text pasted with them still goes in the box.
            const pasted = [...event.clipboardData.files];
            if (pasted.length === 0) return;
            if (!event.clipboardData.types.includes('text/plain')) event.preventDefault();
            void attachFiles(pasted);
          }}
          onChange={(event) => {
            const value = event.target.value;
            // A new "+" at the start suggests again.
            if (!value.startsWith('+')) setPlainPlus(false);
            if (typedSlug(value) !== slug) setActive(0);
            setText(value);
          }}
        />
        {running ? (
          <button type="button" className="button composer__stop" onClick={() => cancel.mutate({ chatId: chat.id })}>
            <StopIcon size={16} /> {t('composer.stop')} <kbd className="kbd">{t('keys.escape')}</kbd>
          </button>
        ) : (
          <button type="button" className="button button--primary composer__send" onClick={() => void submit()} disabled={(!text.trim() && nothingAttached) || waiting || preparing || send.isPending || !chat.model}
            aria-label={t('composer.send')}
            title={!chat.model ? t('composer.pickModelFirst') : waiting ? t('composer.answerFirst') : !text.trim() && nothingAttached ? t('composer.typeFirst') : t('composer.sendHint')}
          >
            <SendIcon size={16} />
          </button>
        )}
      </div>
    </div>
  );
}
