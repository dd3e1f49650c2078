import { useTranslation } from 'react-i18next';
import { useId } from 'react';
import type { ChatBundle } from '../../../shared/schemas/chat.js';
import type { BundleView } from '../../../shared/schemas/bundle.js';
import { useBundles } from '../../queries/tools.js';

/**
 * Whole bundles a chat reaches (an MCP server is one): their tools as they
 * are now, new ones included, each at its latest version; ask first or
 * never allow for all of them. Tools picked one by one below keep their own
 * settings.
 */
export function BundlePicker({ bundles, onChange, disabled = false }: { bundles: ChatBundle[]; onChange: (bundles: ChatBundle[]) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const list = useBundles(false);
  const id = useId();
  const valid = (list.data?.bundles ?? []).filter((bundle): bundle is BundleView => bundle.status === 'valid' && bundle.toolCount > 0);
  const entryFor = (bundleID: string) => bundles.find((entry) => entry.bundleID === bundleID);
  const change = (bundleID: string, patch: Partial<ChatBundle> | null) => {
    const rest = bundles.filter((entry) => entry.bundleID !== bundleID);
    if (patch === null) return onChange(rest);
    const next: ChatBundle = { ...(entryFor(bundleID) ?? { bundleID }), ...patch };
    if (!next.requiresApproval) delete next.requiresApproval;
    if (!next.denied) delete next.denied;
    onChange([...rest, next]);
  };
  const reach = bundles.reduce((sum, entry) => sum + (valid.find((bundle) => bundle.bundleID === entry.bundleID)?.toolCount ?? 0), 0);
  return (
    <fieldset className="bundle-picker" disabled={disabled} aria-describedby={`${id}-help`}>
      <legend className="field__label">{t('bundlePicker.legend')}</legend>
      <p id={`${id}-help`} className="muted">
        {bundles.length ? t('bundlePicker.reach', { count: bundles.length, tools: t('bundlePicker.tools', { count: reach }) }) : t('bundlePicker.none')}
      </p>
      <ul className="bundle-picker__list">
        {valid.map((bundle) => {
          const entry = entryFor(bundle.bundleID);
          return (
            <li key={bundle.bundleID} className="bundle-picker__row">
              <label className="checkbox">
                <input type="checkbox" checked={Boolean(entry)} onChange={(event) => change(bundle.bundleID, event.target.checked ? {} : null)} />
                {bundle.displayName} <span className="muted">{t('bundlePicker.tools', { count: bundle.toolCount })}</span>
              </label>
              {entry ? (
                <span className="tool-picker__options">
                  <label className="checkbox">
                    <input type="checkbox" checked={Boolean(entry.requiresApproval)} disabled={entry.denied} onChange={(event) => change(bundle.bundleID, { requiresApproval: event.target.checked })} />
                    {t('bundlePicker.ask')}
                  </label>
                  <label className="checkbox">
                    <input type="checkbox" checked={Boolean(entry.denied)} onChange={(event) => change(bundle.bundleID, { denied: event.target.checked })} />
                    {t('bundlePicker.never')}
                  </label>
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
