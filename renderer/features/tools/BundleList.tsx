import { Switch } from '../../components/Switch.js';
import { useBundles, usePatchBundle } from '../../queries/tools.js';
import { useToolsUi } from '../../state/tools-ui.js';

/** The "Bundles" region: every bundle with its switch; built-ins only have the switch. */
export function BundleList() {
  const bundles = useBundles(true);
  const patch = usePatchBundle();
  const selected = useToolsUi((state) => state.bundleID);
  const select = useToolsUi((state) => state.selectBundle);

  return (
    <section className="pane pane--bundles" aria-labelledby="bundles-title">
      <div className="pane__header">
        <h2 id="bundles-title" className="pane__title">
          Bundles
        </h2>
      </div>
      {bundles.isError ? (
        <p className="pane__message error-text" role="alert">
          Could not load bundles: {bundles.error.message}
        </p>
      ) : (
        <ul className="list" aria-label="Bundles">
          <li className="list__row">
            <button type="button" className="list__item" aria-current={selected === null ? 'true' : undefined} onClick={() => select(null)}>
              <span className="list__main">
                <span className="list__title">All tools</span>
              </span>
            </button>
          </li>
          {bundles.data?.bundles.map((bundle) =>
            bundle.status === 'invalid' ? (
              <li key={bundle.bundleID} className="list__item list__item--static" title={bundle.invalidReason}>
                <span className="list__main">
                  <span className="list__title">{bundle.displayName ?? bundle.bundleID}</span>
                  <span className="list__meta error-text">bundle.json is invalid: {bundle.invalidReason}</span>
                </span>
              </li>
            ) : (
              <li key={bundle.bundleID} className="list__row">
                <button
                  type="button"
                  className="list__item"
                  aria-current={selected === bundle.bundleID ? 'true' : undefined}
                  onClick={() => select(bundle.bundleID)}
                >
                  <span className="list__main">
                    <span className="list__title">
                      {bundle.displayName}
                      {bundle.isBuiltIn ? <span className="badge">Built-in</span> : null}
                    </span>
                    <span className="list__meta">
                      {bundle.toolCount} {bundle.toolCount === 1 ? 'tool' : 'tools'}
                      {bundle.isEnabled ? '' : ' · off'}
                    </span>
                  </span>
                </button>
                <Switch
                  checked={bundle.isEnabled}
                  label={`Enable bundle ${bundle.displayName}`}
                  onChange={(isEnabled) => patch.mutate({ bundleID: bundle.bundleID, isEnabled })}
                />
              </li>
            ),
          )}
        </ul>
      )}
    </section>
  );
}
