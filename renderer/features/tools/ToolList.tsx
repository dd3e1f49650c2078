import { useDeferredValue } from 'react';
import type { ToolEntry } from '../../../shared/schemas/tool.js';
import { Switch } from '../../components/Switch.js';
import { useBundles, usePatchTool, useToolSearch } from '../../queries/tools.js';
import { useToolsUi } from '../../state/tools-ui.js';

/** The "Tools" region: search as you type with the store's ranking, switches, states explained. */
export function ToolList() {
  const { bundleID, query, includeDisabled, selected, setQuery, setIncludeDisabled, selectTool, openEditor } = useToolsUi();
  const deferredQuery = useDeferredValue(query);
  const tools = useToolSearch(deferredQuery, bundleID, includeDisabled);
  const bundles = useBundles(true);
  const patch = usePatchTool();
  const bundleNames = new Map(
    (bundles.data?.bundles ?? []).flatMap((bundle) => (bundle.status === 'valid' ? [[bundle.bundleID, bundle] as const] : [])),
  );
  const list = tools.data?.tools ?? [];
  const currentBundle = bundleID ? bundleNames.get(bundleID) : undefined;
  const canAdd = currentBundle && !currentBundle.isBuiltIn && currentBundle.isEnabled;

  return (
    <section className="pane pane--tools" aria-labelledby="tools-title">
      <div className="pane__header pane__header--stack">
        <div className="pane__title-row">
          <h2 id="tools-title" className="pane__title">
            Tools
          </h2>
          {canAdd ? (
            <button type="button" className="button button--small" onClick={() => openEditor({ mode: 'new', bundleID: currentBundle.bundleID })}>
              New tool
            </button>
          ) : null}
        </div>
        <input
          type="search"
          className="input"
          placeholder="Search by name, slug, tag…"
          aria-label="Search tools"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        <label className="checkbox">
          <input type="checkbox" checked={includeDisabled} onChange={(event) => setIncludeDisabled(event.target.checked)} />
          Show switched-off and broken tools
        </label>
      </div>
      {tools.isError ? (
        <p className="pane__message error-text" role="alert">
          Could not load tools: {tools.error.message}
        </p>
      ) : list.length === 0 && !tools.isPending ? (
        <p className="pane__message muted">{query ? `No tool matches “${query}”.` : 'No tools here yet.'}</p>
      ) : (
        <ul className="list" aria-label="Tools">
          {list.map((tool) => {
            const bundle = bundleNames.get(tool.bundleID);
            const isSelected =
              selected?.bundleID === tool.bundleID && selected.slug === tool.slug && selected.version === tool.version;
            return (
              <li key={tool.toolID} className="list__row">
                <button
                  type="button"
                  className="list__item"
                  aria-current={isSelected ? 'true' : undefined}
                  disabled={tool.status === 'invalid' && !tool.slug}
                  onClick={() => tool.slug && tool.version && selectTool({ bundleID: tool.bundleID, slug: tool.slug, version: tool.version })}
                >
                  <span className="list__main">
                    <span className="list__title">
                      {tool.displayName ?? tool.slug ?? tool.toolID}
                      {tool.status === 'valid' ? <span className="badge badge--quiet">{tool.type === 'http' ? 'HTTP' : 'Local'}</span> : null}
                    </span>
                    <span className="list__meta">
                      <code>
                        {tool.slug ?? '?'}@{tool.version ?? '?'}
                      </code>
                      {bundle && !bundleID ? ` · ${bundle.displayName}` : ''}
                    </span>
                    <ToolState tool={tool} />
                  </span>
                </button>
                {tool.status === 'valid' && tool.slug ? (
                  <Switch
                    checked={tool.isEnabled}
                    label={`Enable tool ${tool.displayName}`}
                    disabled={bundle ? !bundle.isEnabled : false}
                    onChange={(isEnabled) => patch.mutate({ bundleID: tool.bundleID, toolSlug: tool.slug, version: tool.version, isEnabled })}
                  />
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function ToolState({ tool }: { tool: ToolEntry }) {
  if (tool.status === 'invalid') return <span className="list__meta error-text">Invalid file: {tool.invalidReason}</span>;
  if (!tool.available) return <span className="list__meta warning-text">Unavailable: {tool.unavailableReason}</span>;
  return null;
}
