import { create } from 'zustand';

interface LeaveGuardState {
  /** What would be lost by leaving, in words ("your new version of City weather"); null when nothing is. */
  unsaved: string | null;
  /** A step away that waits for the person to say "discard". */
  pending: (() => void) | null;
  setUnsaved: (what: string | null) => void;
  /** Takes the step now, or once the person agrees to discard what is unsaved. */
  leave: (step: () => void) => void;
  discard: () => void;
  stay: () => void;
}

/** "You have unsaved changes": one question before any step that would throw edits away. */
export const useLeaveGuard = create<LeaveGuardState>()((set, get) => ({
  unsaved: null,
  pending: null,
  setUnsaved: (unsaved) => set({ unsaved }),
  leave: (step) => {
    if (get().unsaved === null) step();
    else set({ pending: step });
  },
  discard: () => {
    const step = get().pending;
    set({ unsaved: null, pending: null });
    step?.();
  },
  stay: () => set({ pending: null }),
}));

/** Wraps a navigation so it asks first when something is unsaved. */
export function guarded<A extends unknown[]>(step: (...args: A) => void): (...args: A) => void {
  return (...args) => useLeaveGuard.getState().leave(() => step(...args));
}
