import { create } from 'zustand';
import type { McpbPreview } from '../../shared/schemas/mcp-install.js';

/** Something that would add an MCP server (or start a chat), waiting for the person to look at it. */
export type InstallRequest =
  | { kind: 'mcpb'; file?: File; preview?: McpbPreview }
  | { kind: 'registry' }
  | { kind: 'link'; url: string }
  | { kind: 'problem'; message: string };

interface InstallRequests {
  request: InstallRequest | null;
  open: (request: InstallRequest) => void;
  close: () => void;
}

/** One request at a time: a second one (another link, a dropped bundle) replaces what was shown, never adds silently. */
export const useInstallRequests = create<InstallRequests>((set) => ({
  request: null,
  open: (request) => set({ request }),
  close: () => set({ request: null }),
}));
