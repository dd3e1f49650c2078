import { create } from 'zustand';

export interface ToolAddress {
  bundleID: string;
  slug: string;
  version: string;
}

interface ToolsUiState {
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
  selectBundle: (bundleID) => set({ bundleID, selected: null }),
  setQuery: (query) => set({ query }),
  setIncludeDisabled: (includeDisabled) => set({ includeDisabled }),
  selectTool: (selected) => set({ selected }),
}));
