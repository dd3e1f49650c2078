import { create } from 'zustand';

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
  openEditor: (editor) => set({ editor }),
  selectBundle: (bundleID) => set({ bundleID, selected: null, editor: null }),
  setQuery: (query) => set({ query }),
  setIncludeDisabled: (includeDisabled) => set({ includeDisabled }),
  selectTool: (selected) => set({ selected, editor: null }),
}));
