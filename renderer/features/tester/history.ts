import { create } from 'zustand';
import type { InvokeResult } from '../../../shared/schemas/invocation.js';

export interface TesterRun {
  id: number;
  toolKey: string;
  at: Date;
  args: Record<string, unknown>;
  result: InvokeResult;
}

interface TesterHistory {
  runs: TesterRun[];
  add: (run: Omit<TesterRun, 'id' | 'at'>) => TesterRun;
}

let nextID = 1;

/** This session's tester runs, newest first, to compare and re-run. Kept in memory only. */
export const useTesterHistory = create<TesterHistory>()((set) => ({
  runs: [],
  add: (run) => {
    const entry = { ...run, id: nextID++, at: new Date() };
    set((state) => ({ runs: [entry, ...state.runs].slice(0, 50) }));
    return entry;
  },
}));
