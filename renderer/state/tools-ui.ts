import { create } from 'zustand';
import { guarded } from './leave-guard.js';

export interface ToolAddress {
  bundleID: string;
  slug: string;
  version: string;
}

export type EditorTarget = { mode: 'new'; bundleID: string } | { mode: 'version'; address: ToolAddress } | null;

interface ToolsUiState {
  editor: EditorTarget;
  openEditor: (target: EditorTarget) => void;
  /** null: every bundle. */
  bundleID: string | null;
  query: string;
  includeDisabled: boolean;
  selected: ToolAddress | null;
  selectBundle: (bundleID: string | null) => void;
  setQuery: (query: string) => void;
  setIncludeDisabled: (includeDisabled: boolean) => void;
  selectTool: (address: ToolAddress | null) => void;
}

export const useToolsUi = create<ToolsUiState>()((set) => ({
  bundleID: null,
  query: '',
  includeDisabled: true,
  selected: null,
  editor: null,
  // Each of these can close an editor with unsaved edits: they ask first.
  openEditor: guarded((editor: EditorTarget) => set({ editor })),
  selectBundle: guarded((bundleID: string | null) => set({ bundleID, selected: null, editor: null })),
  setQuery: (query) => set({ query }),
  setIncludeDisabled: (includeDisabled) => set({ includeDisabled }),
  selectTool: guarded((selected: ToolAddress | null) => set({ selected, editor: null })),
}));
