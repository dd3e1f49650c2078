import { create } from 'zustand';
import type { ToolView } from '../../shared/schemas/tool.js';
import { guarded } from './leave-guard.js';

export interface ToolAddress {
  bundleID: string;
  slug: string;
  version: string;
}

/** What the editor edits: a new tool (from a draft made elsewhere, a recipe from a chat's calls), or a new version of one. */
export type EditorTarget = { mode: 'new'; bundleID: string; draft?: Record<string, unknown> } | { mode: 'version'; address: ToolAddress } | null;

interface ToolsUiState {
  editor: EditorTarget;
  openEditor: (target: EditorTarget) => void;
  /** Opens the Tools screen's editor on a new tool of `bundleID` from `draft` (the bundle shown, no tool selected). */
  openDraft: (bundleID: string, draft: Record<string, unknown>) => void;
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
  openDraft: guarded((bundleID: string, draft: Record<string, unknown>) => set({ bundleID, selected: null, editor: { mode: 'new', bundleID, draft } })),
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
