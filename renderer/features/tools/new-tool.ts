import { useState } from 'react';
import { v7 as uuidv7 } from 'uuid';
import type { BundleView } from '../../../shared/schemas/bundle.js';
import { errorMessage } from '../../components/ErrorLine.js';
import { i18n } from '../../i18n/index.js';
import { usePutBundle } from '../../queries/tools.js';
import type { EditorTarget } from '../../state/tools-ui.js';

type Shown = Pick<BundleView, 'bundleID' | 'displayName' | 'readOnly' | 'isEnabled'>;

/**
 * "New tool", offered from the first visit on: into the bundle shown when it is the person's, else their first
 * bundle, else a "My tools" bundle made for it (a first visit has none, and the button used not to be there).
 */
export function useNewTool(current: Shown | undefined, bundles: readonly Shown[], selectBundle: (bundleID: string) => void, openEditor: (target: EditorTarget) => void) {
  const put = usePutBundle();
  const [problem, setProblem] = useState<string | null>(null);
  const writable = (bundle: Shown | undefined) => bundle !== undefined && !bundle.readOnly && bundle.isEnabled;
  const target = writable(current) ? current : bundles.find(writable);
  const open = (bundleID: string) => {
    setProblem(null);
    selectBundle(bundleID);
    openEditor({ mode: 'new', bundleID });
  };
  return {
    where: target ? i18n.t('toolList.newToolIn', { bundle: target.displayName }) : i18n.t('toolList.newToolMakes', { bundle: i18n.t('toolList.myTools') }),
    busy: put.isPending,
    problem,
    start: () => {
      if (target) return open(target.bundleID);
      const bundleID = uuidv7();
      put.mutate(
        { bundleID, slug: 'my-tools', displayName: i18n.t('toolList.myTools'), description: '', isEnabled: true },
        { onSuccess: () => open(bundleID), onError: (failure) => setProblem(errorMessage(failure)) },
      );
    },
  };
}
