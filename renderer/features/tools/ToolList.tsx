import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../i18n/index.js';
import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import type { ToolEntry } from '../../../shared/schemas/tool.js';
import { Switch } from '../../components/Switch.js';
import { useBundles, usePatchTool, useToolPages } from '../../queries/tools.js';
import { useToolsUi } from '../../state/tools-ui.js';
import { PaneHeader } from '../../components/PaneHeader.js';
import { ShareBundleToggle } from './ShareBundleToggle.js';
import { VersionBadge } from '../../components/VersionBadge.js';
import { DeletedToolToast } from './ToolVersions.js';
import { useNewTool } from './new-tool.js';

/**
 * The "Tools" region: search as you type with the store's ranking, a tag
 * filter, switches, states explained. Rows are virtualized and pages load
 * as the list scrolls, so ten thousand tools stay smooth.
 */
export function ToolList() {
  const { t } = useTranslation();
  const { bundleID, query, includeDisabled, selected, setQuery, setIncludeDisabled, selectTool, openEditor, selectBundle } = useToolsUi();
  const [tag, setTag] = useState('');
  const deferredQuery = useDeferredValue(query);
  const pages = useToolPages(deferredQuery, bundleID, includeDisabled);
  const bundles = useBundles(true);
  const patch = usePatchTool();
  const bundleNames = useMemo(
    () => new Map((bundles.data?.bundles ?? []).flatMap((bundle) => (bundle.status === 'valid' ? [[bundle.bundleID, bundle] as const] : []))),
    [bundles.data],
  );
  const wantedTag = tag.trim().toLowerCase();
  const list = useMemo(
    () =>
      (pages.data?.pages ?? [])
        .flatMap((page) => page.tools)
        .filter((tool) => !wantedTag || (tool.status === 'valid' && tool.tags.some((item) => item.toLowerCase() === wantedTag))),
    [pages.data, wantedTag],
  );
  const currentBundle = bundleID ? bundleNames.get(bundleID) : undefined;
  const newTool = useNewTool(currentBundle, [...bundleNames.values()], selectBundle, openEditor);

  const scroller = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is meant to be used this way
  const virtualizer = useVirtualizer({
    count: list.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 60,
    overscan: 10,
    // Sizes are remembered per tool, not per position: when the list changes, a row keeps its own height
    // (keyed by position, a two-line row took the height of the one-line row that was there before, and overlapped).
    getItemKey: (index) => list[index]?.toolID ?? index,
  });
  // A new search starts at the top, not wherever the last one was scrolled to.
  useEffect(() => {
    scroller.current?.scrollTo({ top: 0 });
  }, [deferredQuery, bundleID, wantedTag, includeDisabled]);
  const rows = virtualizer.getVirtualItems();
  const lastRow = rows.at(-1)?.index ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastRow >= list.length - 15) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, lastRow, list.length]);

  return (
    <section className="pane pane--tools" aria-labelledby="tools-title">
      <PaneHeader
        titleId="tools-title"
        title={t('toolList.title')}
        stack
        action={
          bundles.data ? (
            <button type="button" className="button button--small" data-new-tool title={newTool.where} disabled={newTool.busy} onClick={newTool.start}>
              {t('toolList.newTool')}
            </button>
          ) : null
        }
      >
        <input type="search" className="input" placeholder={t('toolList.searchPlaceholder')} aria-label={t('toolList.search')} value={query} onChange={(event) => setQuery(event.target.value)} />
        <input type="search" className="input input--small" placeholder={t('toolList.tagPlaceholder')} aria-label={t('toolList.tag')} value={tag} onChange={(event) => setTag(event.target.value)} />
        <label className="checkbox">
          <input type="checkbox" checked={includeDisabled} onChange={(event) => setIncludeDisabled(event.target.checked)} />
          {t('toolList.showAll')}
        </label>
        {currentBundle ? <ShareBundleToggle bundleID={currentBundle.bundleID} displayName={currentBundle.displayName} /> : null}
        <DeletedToolToast />
        {newTool.problem ? (
          <p className="field__error" role="alert">
            {newTool.problem}
          </p>
        ) : null}
      </PaneHeader>
      {pages.isError ? (
        <p className="pane__message error-text" role="alert">
          {t('toolList.couldNotLoad', { message: pages.error.message })}
        </p>
      ) : list.length === 0 && !pages.isPending && !hasNextPage ? (
        <p className="pane__message muted">{query && tag ? t('toolList.noMatchTag', { query, tag }) : query ? t('toolList.noMatch', { query }) : tag ? t('toolList.noTag', { tag }) : t('toolList.empty')}</p>
      ) : (
        <div ref={scroller} className="list-scroller">
          <ul className="list list--virtual" aria-label={t('toolList.title')} style={{ height: virtualizer.getTotalSize() }}>
            {rows.map((row) => {
              const tool = list[row.index]!;
              const bundle = bundleNames.get(tool.bundleID);
              const isSelected = selected?.bundleID === tool.bundleID && selected.slug === tool.slug && selected.version === tool.version;
              return (
                <li
                  key={tool.toolID}
                  ref={virtualizer.measureElement}
                  data-index={row.index}
                  aria-setsize={list.length}
                  aria-posinset={row.index + 1}
                  className="list__row list__row--virtual"
                  style={{ transform: `translateY(${row.start}px)` }}
                >
                  <button
                    type="button"
                    className="list__item"
                    aria-current={isSelected ? 'true' : undefined}
                    disabled={tool.status === 'invalid' && !tool.slug}
                    onClick={() => tool.slug && tool.version && selectTool({ bundleID: tool.bundleID, slug: tool.slug, version: tool.version })}
                  >
                    <span className="list__main">
                      <span className="list__title">
                        <bdi>{tool.displayName ?? tool.slug ?? tool.toolID}</bdi>
                        {tool.status === 'valid' ? <span className="badge badge--quiet">{t(`toolList.type.${tool.type}`)}</span> : null}
                        {tool.status === 'valid' && tool.type === 'mcp' && tool.impl.ui?.resourceUri ? <span className="badge badge--quiet">{t('apps.badge')}</span> : null}
                        {tool.status === 'valid' && tool.type === 'mcp' && tool.impl.ui?.visibility?.join() === 'app' ? (
                          <span className="badge badge--quiet" title={t('apps.appOnlyHint')}>
                            {t('apps.appOnly')}
                          </span>
                        ) : null}
                      </span>
                      <span className="list__meta">
                        <code>
                          {tool.slug ?? '?'}@{tool.version ?? '?'}
                        </code>
                        {tool.status === 'valid' ? <> <VersionBadge tool={tool} /></> : null}
                        {bundle && !bundleID ? ` · ${bundle.displayName}` : ''}
                      </span>
                      <ToolState tool={tool} />
                    </span>
                  </button>
                  {tool.status === 'valid' && tool.slug && bundle && !bundle.isEnabled ? (
                    // The tool's own switch means nothing while its bundle is off: say so rather than show "on".
                    <span className="badge badge--quiet" title={t('toolList.bundleOffHint')}>
                      {t('toolList.bundleOff')}
                    </span>
                  ) : tool.status === 'valid' && tool.slug ? (
                    <Switch
                      checked={tool.isEnabled}
                      label={t('toolList.enable', { name: tool.displayName })}
                      onChange={(isEnabled) => patch.mutate({ bundleID: tool.bundleID, toolSlug: tool.slug, version: tool.version, isEnabled })}
                    />
                  ) : null}
                </li>
              );
            })}
          </ul>
          {isFetchingNextPage ? <p className="pane__message muted">{t('toolList.loadingMore')}</p> : null}
        </div>
      )}
    </section>
  );
}

function ToolState({ tool }: { tool: ToolEntry }) {
  if (tool.status === 'invalid') return <span className="list__meta error-text">{i18n.t('toolList.invalid', { reason: tool.invalidReason })}</span>;
  if (!tool.available) return <span className="list__meta warning-text">{i18n.t('toolList.unavailable', { reason: tool.unavailableReason })}</span>;
  return null;
}
