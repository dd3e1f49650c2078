import { create } from 'zustand';
import type { PersonFileKind } from '../../shared/schemas/person-file.js';

/** A file the person attached, waiting in the message box: what `chats.send` gets, and a preview of a picture. */
export interface PendingFile {
  id: string;
  name: string;
  kind: PersonFileKind;
  mediaType: string;
  dataBase64: string;
  bytes: number;
  /** An object URL of the picture's small preview, or of the picture as it is sent when no preview could be made (revoked when it leaves the box). */
  previewUrl?: string;
  /** A picture still being made smaller in its worker: the message waits for it. */
  preparing?: boolean;
}

interface ComposerFilesState {
  /** The person's files waiting in each chat's message box until it is sent (not kept across restarts: they are large). */
  files: Record<string, PendingFile[]>;
  add: (chatId: string, files: PendingFile[]) => void;
  remove: (chatId: string, id: string) => void;
  /** A picture made ready takes the place of what was shown while it was prepared (unless it was taken out meanwhile); it keeps the preview it had. */
  replace: (chatId: string, file: PendingFile) => void;
  /** A picture's preview, shown while it is made ready (unless it was taken out meanwhile). */
  preview: (chatId: string, id: string, url: string) => void;
  clear: (chatId: string) => void;
  /** What could not be attached, said under the message box until the next try. */
  problems: Record<string, string | null>;
  setProblem: (chatId: string, problem: string | null) => void;
}

const release = (files: readonly PendingFile[]) => {
  for (const file of files) if (file.previewUrl) URL.revokeObjectURL(file.previewUrl);
};

export const useComposerFiles = create<ComposerFilesState>()((set, get) => ({
  files: {},
  add: (chatId, files) => set((state) => ({ files: { ...state.files, [chatId]: [...(state.files[chatId] ?? []), ...files] } })),
  remove: (chatId, id) => {
    release((get().files[chatId] ?? []).filter((file) => file.id === id));
    set((state) => ({ files: { ...state.files, [chatId]: (state.files[chatId] ?? []).filter((file) => file.id !== id) } }));
  },
  replace: (chatId, file) => {
    const waiting = get().files[chatId] ?? [];
    const old = waiting.find((each) => each.id === file.id);
    if (!old) return release([file]);
    const shown = file.previewUrl === undefined && old.previewUrl !== undefined ? { ...file, previewUrl: old.previewUrl } : file;
    if (shown.previewUrl !== old.previewUrl) release([old]);
    set((state) => ({ files: { ...state.files, [chatId]: waiting.map((each) => (each.id === file.id ? shown : each)) } }));
  },
  preview: (chatId, id, url) => {
    const waiting = get().files[chatId] ?? [];
    const file = waiting.find((each) => each.id === id);
    if (!file?.preparing || file.previewUrl !== undefined) return URL.revokeObjectURL(url);
    set((state) => ({ files: { ...state.files, [chatId]: waiting.map((each) => (each.id === id ? { ...each, previewUrl: url } : each)) } }));
  },
  clear: (chatId) => {
    release(get().files[chatId] ?? []);
    set((state) => ({ files: { ...state.files, [chatId]: [] } }));
  },
  problems: {},
  setProblem: (chatId, problem) => set((state) => ({ problems: { ...state.problems, [chatId]: problem } })),
}));
