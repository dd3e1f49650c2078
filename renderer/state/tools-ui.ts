import { create } from 'zustand';
import type { ToolView } from '../../shared/schemas/tool.js';
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
  /** Arguments the tester of this tool starts with once (a call opened from a chat). */
  testerPrefill: { address: ToolAddress; args: Record<string, unknown> } | null;
  openInTester: (address: ToolAddress, args: Record<string, unknown>) => void;
  /** The prefill for this tool, if any (read while rendering, so it changes nothing). */
  testerPrefillFor: (address: ToolAddress) => Record<string, unknown> | undefined;
  /** Forgets a prefill once its tester has opened with it. */
  clearTesterPrefill: (address: ToolAddress) => void;
  /** The tool (or version) deleted a moment ago, while "Undo" is offered. */
  deletedTool: ToolView | null;
  setDeletedTool: (tool: ToolView | null) => void;
  /** Why the last deletion of a tool failed, shown where its Undo would be. */
  deleteProblem: string | null;
  setDeleteProblem: (problem: string | null) => void;
}

const sameTool = (a: ToolAddress, b: ToolAddress) => a.bundleID === b.bundleID && a.slug === b.slug && a.version === b.version;

export const useToolsUi = create<ToolsUiState>()((set, get) => ({
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
  testerPrefill: null,
  openInTester: guarded((address: ToolAddress, args: Record<string, unknown>) => set({ selected: address, editor: null, testerPrefill: { address, args } })),
  testerPrefillFor: (address) => {
    const prefill = get().testerPrefill;
    return prefill && sameTool(prefill.address, address) ? prefill.args : undefined;
  },
  clearTesterPrefill: (address) => {
    const prefill = get().testerPrefill;
    if (prefill && sameTool(prefill.address, address)) set({ testerPrefill: null });
  },
  deletedTool: null,
  setDeletedTool: (deletedTool) => set({ deletedTool, deleteProblem: null }),
  deleteProblem: null,
  setDeleteProblem: (deleteProblem) => set({ deleteProblem }),
}));
