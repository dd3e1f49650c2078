import { useMutation } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useDeferredValue, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { ToolSelection } from '../../shared/schemas/chat.js';
import type { ToolView } from '../../shared/schemas/tool.js';
import { useApi } from '../api/context.js';
import { allToolsOf, useBundleName, useChosenTools, useToolPages } from '../queries/tools.js';
import { ErrorLine, errorMessage } from './ErrorLine.js';
import { ToolPickerRow } from './ToolPickerRow.js';

export const selectionKey = (entry: { bundleID: string; slug: string; version: string }) => `${entry.bundleID}/${entry.slug}/${entry.version}`;

export interface ToolPickerProps {
  selected: ToolSelection[];
  onChange: (selected: ToolSelection[]) => void;
  disabled?: boolean;
  /** Tools not to offer (an agent is not offered to itself). */
  hidden?: (tool: ToolView) => boolean;
  /** Offer "Always offer" for chats that find their other tools by search. */
  pinnable?: boolean;
}

type Row = { kind: 'bundle'; bundleID: string } | { kind: 'tool'; tool: ToolView };

/** A patch to an entry, with its empty settings left out (the chat file stays as people would write it). */
function patched(current: ToolSelection, patch: Partial<ToolSelection>): ToolSelection {
  const next = { ...current, ...patch };
  if (!next.as) delete next.as;
  if (!next.requiresApproval) delete next.requiresApproval;
  if (!next.denied) delete next.denied;
  if (!next.pinned) delete next.pinned;
  if (next.resultLimit === undefined) delete next.resultLimit;
  return next;
}

/**
 * Which tools a model may call: the chosen ones first (as they were when the
 * picker opened, so ticking a box never moves its row), then every tool by
 * search, bundle by bundle, pages loading as the list scrolls (virtualised:
 * ten thousand tools stay smooth). For each chosen one, whether to ask first,
 * never to allow it, how much of a result the model reads, and the name it
 * sees. A chat and an agent tool choose alike.
 */
export function ToolPicker({ selected, onChange, disabled = false, hidden, pinnable = false }: ToolPickerProps) {
  const { t } = useTranslation();
  const api = useApi();
  const id = useId();
  const bundleName = useBundleName();
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const pages = useToolPages(deferred, null, false);
  const [firstChosen] = useState(() => selected.map((entry) => ({ bundleID: entry.bundleID, slug: entry.slug, version: entry.version })));
  const chosenTools = useChosenTools(firstChosen);
  const firstKeys = useMemo(() => new Set(firstChosen.map(selectionKey)), [firstChosen]);
  const byKey = new Map(selected.map((entry) => [selectionKey(entry), entry]));

  const change = (key: { bundleID: string; slug: string; version: string }, patch: Partial<ToolSelection> | null) => {
    const rest = selected.filter((entry) => selectionKey(entry) !== selectionKey(key));
    if (patch === null) return onChange(rest);
    onChange([...rest, patched(byKey.get(selectionKey(key)) ?? { bundleID: key.bundleID, slug: key.slug, version: key.version }, patch)]);
  };
  const tickBundle = useMutation({
    mutationFn: async (bundleID: string) => (await allToolsOf(api, [bundleID])).filter((tool) => tool.isEnabled && !hidden?.(tool)),
    onSuccess: (tools) => {
      const added = tools.filter((tool) => !byKey.has(selectionKey(tool))).map((tool) => ({ bundleID: tool.bundleID, slug: tool.slug, version: tool.version }));
      onChange([...selected, ...added]);
    },
  });

  // Found by search, less the chosen ones already listed above, grouped by bundle in the order found.
  const found = useMemo(
    () => (pages.data?.pages ?? []).flatMap((page) => page.tools).filter((tool): tool is ToolView => tool.status === 'valid' && !hidden?.(tool) && !firstKeys.has(selectionKey(tool))),
    [pages.data, hidden, firstKeys],
  );
  const rows = useMemo(() => {
    const groups = new Map<string, ToolView[]>();
    for (const tool of found) groups.set(tool.bundleID, [...(groups.get(tool.bundleID) ?? []), tool]);
    return [...groups].flatMap(([bundleID, tools]): Row[] => [{ kind: 'bundle', bundleID }, ...tools.map((tool) => ({ kind: 'tool' as const, tool }))]);
  }, [found]);

  const scroller = useRef<HTMLDivElement>(null);
  const foundList = useRef<HTMLFieldSetElement>(null);
  const foundOffset = useOffsetIn(foundList);
  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is meant to be used this way
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (index) => (rows[index]?.kind === 'bundle' ? 36 : 30),
    overscan: 12,
    getItemKey: (index) => {
      const row = rows[index];
      return !row ? index : row.kind === 'bundle' ? `bundle:${row.bundleID}` : row.tool.toolID;
    },
    // The chosen tools are drawn above the list, in the same scrolling box.
    scrollMargin: foundOffset,
  });
  // A new search starts at the top, not wherever the last one was scrolled to.
  useEffect(() => {
    scroller.current?.scrollTo({ top: 0 });
  }, [deferred]);
  const lastRow = virtualizer.getVirtualItems().at(-1)?.index ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && lastRow >= rows.length - 20) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, lastRow, rows.length]);

  const denied = selected.filter((entry) => entry.denied).length;
  const chosenFirst = firstChosen.filter((entry) => {
    const tool = chosenTools.data?.get(selectionKey(entry));
    return !(tool && hidden?.(tool));
  });

  return (
    <>
      <label className="visually-hidden" htmlFor={`${id}-search`}>
        {t('toolPicker.search')}
      </label>
      <input id={`${id}-search`} className="input" placeholder={t('toolPicker.searchPlaceholder')} value={query} onChange={(event) => setQuery(event.target.value)} disabled={disabled} />
      <p className="muted">
        {t('toolPicker.selected', { count: selected.length - denied })}
        {denied ? t('toolPicker.denied', { count: denied }) : ''}
      </p>
      <ErrorLine message={tickBundle.isError ? errorMessage(tickBundle.error) : pages.isError ? errorMessage(pages.error) : null} />
      <div className="tool-picker" ref={scroller} aria-disabled={disabled}>
        <fieldset className="tool-picker__chosen" disabled={disabled}>
          {chosenFirst.length ? <legend className="tool-picker__heading">{t('toolPicker.chosen')}</legend> : null}
          {chosenFirst.map((entry) => {
            const key = selectionKey(entry);
            return (
              <ToolPickerRow
                key={key}
                tool={chosenTools.data ? (chosenTools.data.get(key) ?? null) : undefined}
                entry={byKey.get(key)}
                fallbackName={entry.slug}
                idBase={`${id}-${key}`}
                pinnable={pinnable}
                change={(patch) => change(entry, patch)}
              />
            );
          })}
        </fieldset>
        <fieldset ref={foundList} className="tool-picker__found" disabled={disabled}>
          <legend className="visually-hidden">{t('toolPicker.all')}</legend>
          <div className="tool-picker__rows" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((item) => {
              const row = rows[item.index]!;
              return (
                <div key={item.key} ref={virtualizer.measureElement} data-index={item.index} className="tool-picker__virtual" style={{ transform: `translateY(${item.start - virtualizer.options.scrollMargin}px)` }}>
                  {row.kind === 'bundle' ? (
                    <div className="tool-picker__bundle-head">
                      <span className="tool-picker__heading">{bundleName(row.bundleID) ?? row.bundleID}</span>
                      <button
                        type="button"
                        className="button button--small button--ghost"
                        aria-label={t('toolPicker.tickBundle', { bundle: bundleName(row.bundleID) ?? row.bundleID })}
                        disabled={tickBundle.isPending}
                        onClick={() => tickBundle.mutate(row.bundleID)}
                      >
                        {t('toolPicker.tickAll')}
                      </button>
                    </div>
                  ) : (
                    <ToolPickerRow
                      tool={row.tool}
                      entry={byKey.get(selectionKey(row.tool))}
                      fallbackName={row.tool.slug}
                      idBase={`${id}-${row.tool.toolID}`}
                      pinnable={pinnable}
                      change={(patch) => change(row.tool, patch)}
                    />
                  )}
                </div>
              );
            })}
          </div>
        </fieldset>
        <p className="muted tool-picker__footer" role="status">
          {pages.isPending
            ? t('toolPicker.loading')
            : found.length === 0 && chosenFirst.length === 0
              ? t('toolPicker.noMatch')
              : hasNextPage
                ? t('toolPicker.moreToCome', { count: found.length })
                : t('toolPicker.allShown', { count: found.length })}
        </p>
      </div>
    </>
  );
}

/** Where the found tools begin in the scrolling box, below the chosen ones, kept as those rows grow and shrink. */
function useOffsetIn(element: RefObject<HTMLElement | null>): number {
  const [offset, setOffset] = useState(0);
  useLayoutEffect(() => {
    const target = element.current;
    if (!target) return;
    const measure = () => setOffset(target.offsetTop);
    measure();
    const observer = new ResizeObserver(measure);
    if (target.previousElementSibling) observer.observe(target.previousElementSibling);
    return () => observer.disconnect();
  }, [element]);
  return offset;
}
