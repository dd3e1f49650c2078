import { useCallback, type DragEvent } from 'react';
import { PERSON_FILE_LIMITS } from '../../../../shared/schemas/person-file.js';
import { i18n } from '../../../i18n/index.js';
import { useComposerFiles } from '../../../state/composer-files.js';
import { MAX_PICTURE_CHARS } from '../../../../shared/schemas/attached-image.js';
import { FileProblem, startPersonFile } from './read-person-file.js';

const MAX_PICTURE_BYTES = (MAX_PICTURE_CHARS / 4) * 3;

/**
 * Pasted, dropped or picked files into a chat's message box, within a message's
 * limits: each read as it will be sent; what cannot be, said (all of it at once).
 */
export function useAttachFiles(chatId: string) {
  const add = useComposerFiles((state) => state.add);
  const replace = useComposerFiles((state) => state.replace);
  const preview = useComposerFiles((state) => state.preview);
  const remove = useComposerFiles((state) => state.remove);
  const setProblem = useComposerFiles((state) => state.setProblem);
  return useCallback(
    async (picked: readonly File[]) => {
      if (picked.length === 0) return;
      const waiting = useComposerFiles.getState().files[chatId] ?? [];
      if (waiting.length + picked.length > PERSON_FILE_LIMITS.files) return setProblem(chatId, i18n.t('files.tooMany', { max: PERSON_FILE_LIMITS.files }));
      const problems: string[] = [];
      const say = (error: unknown, name: string) => problems.push(error instanceof FileProblem ? error.message : i18n.t('files.unreadable', { name }));
      const started = (await Promise.all(picked.map((file) => startPersonFile(file).catch((error: unknown) => void say(error, file.name))))).filter((each) => each !== undefined);
      // A picture counts as what it is sent as at most (3 MB); the core checks the sum again.
      const total = [...waiting, ...started.map((each) => each.pending)].reduce((sum, file) => sum + (file.preparing ? Math.min(file.bytes, MAX_PICTURE_BYTES) : file.bytes), 0);
      if (total > PERSON_FILE_LIMITS.messageBytes) {
        for (const { pending } of started) if (pending.previewUrl) URL.revokeObjectURL(pending.previewUrl);
        return setProblem(chatId, i18n.t('files.messageTooLarge', { max: PERSON_FILE_LIMITS.messageBytes / 1024 / 1024 }));
      }
      add(chatId, started.map((each) => each.pending));
      setProblem(chatId, problems.length ? problems.join(' ') : null);
      for (const { pending, preview: previewed, ready } of started) {
        void previewed?.then((url) => url && preview(chatId, pending.id, url));
        void ready?.then(
          (file) => replace(chatId, file),
          (error: unknown) => {
            remove(chatId, pending.id);
            setProblem(chatId, error instanceof FileProblem ? error.message : i18n.t('files.unreadable', { name: pending.name }));
          },
        );
      }
    },
    [add, replace, preview, remove, chatId, setProblem],
  );
}

/** A file's size as people read it. */
export function fileSize(bytes: number): string {
  const format = (value: number) => value.toLocaleString(i18n.language, { maximumFractionDigits: 1 });
  return bytes < 1024 * 1024 ? i18n.t('files.kb', { value: format(Math.max(0.1, bytes / 1024)) }) : i18n.t('files.mb', { value: format(bytes / 1024 / 1024) });
}

/** The chat pane takes files dropped on it: while some are dragged over, it says where they go. */
export function useFileDrop(chatId: string, setDragging: (dragging: boolean) => void) {
  const attach = useAttachFiles(chatId);
  const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') === true;
  return {
    onDragOver: (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'copy';
      setDragging(true);
    },
    onDragLeave: (event: DragEvent) => {
      // Leaving a child for another child of the pane is not leaving the pane.
      if (!(event.currentTarget as Node).contains(event.relatedTarget as Node | null)) setDragging(false);
    },
    onDrop: (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      setDragging(false);
      void attach([...(event.dataTransfer?.files ?? [])]);
    },
  };
}
