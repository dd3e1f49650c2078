import { create } from 'zustand';

/**
 * What the person said about an app's device features (camera, microphone,
 * location, clipboard), per app document, until the window closes: asked
 * again after a restart, as a browser asks a site it has not been told to
 * remember. Nothing is granted before the person answers.
 */
interface AppGrants {
  answers: Record<string, 'allowed' | 'refused'>;
  answer: (app: string, answer: 'allowed' | 'refused') => void;
}

export const useAppGrants = create<AppGrants>((set) => ({
  answers: {},
  answer: (app, answer) => set((state) => ({ answers: { ...state.answers, [app]: answer } })),
}));

/** One app's key: its server's bundle and its document's address. */
export const appKey = (bundleID: string, uri: string) => `${bundleID} ${uri}`;
