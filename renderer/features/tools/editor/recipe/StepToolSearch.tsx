import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ToolView } from '../../../../../shared/schemas/tool.js';
import { useApi } from '../../../../api/context.js';
import { isLatest } from '../../../../components/VersionBadge.js';
import { ToolOption } from '../../../../components/ToolOption.js';
import { useBundleName } from '../../../../queries/tools.js';

/**
 * A step's tool, found as the palette finds tools (the same ranked search):
 * type, then arrows and Enter to pick, Esc to give up. The recipe itself is
 * never offered.
 */
export function StepToolSearch({ label, hidden, onPick, onCancel, autoFocus }: { label: string; hidden: (tool: ToolView) => boolean; onPick: (tool: ToolView) => void; onCancel?: () => void; autoFocus?: boolean }) {
  const { t } = useTranslation();
  const api = useApi();
  const id = useId();
  const bundleName = useBundleName();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const queryClient = useQueryClient();
  const searchOf = (q: string) => ({
    queryKey: ['recipe-step-search', q],
    queryFn: async () => (await api.tools.search({ q, includeDisabled: true, pageSize: 12 })).tools.filter((tool): tool is ToolView => tool.status === 'valid' && isLatest(tool)),
  });
  const found = useQuery({ ...searchOf(query), placeholderData: (previous) => previous });
  const tools = (found.data ?? []).filter((tool) => !hidden(tool)).slice(0, 8);
  const pick = (tool: ToolView | undefined) => {
    if (!tool) return;
    onPick(tool);
    setQuery('');
    setActive(0);
  };
  // Enter pressed while the list still shows the results of what was typed before picks the best match of all that was typed.
  const [failure, setFailure] = useState<string | null>(null);
  const pickBest = () =>
    queryClient.fetchQuery(searchOf(query)).then(
      (results) => pick(results.filter((tool) => !hidden(tool))[0]),
      (error: unknown) => setFailure(error instanceof Error ? error.message : String(error)),
    );
  return (
    <div className="recipe-search">
      <label className="field__label" htmlFor={`${id}-q`}>
        {label}
      </label>
      <input
        id={`${id}-q`}
        className="input"
        role="combobox"
        aria-expanded={tools.length > 0}
        aria-controls={`${id}-list`}
        aria-activedescendant={tools.length ? `${id}-${Math.min(active, tools.length - 1)}` : undefined}
        placeholder={t('recipe.search.placeholder')}
        // Opened by the person's own click on "Add a step" or "Change tool": typing goes on there.
        autoFocus={autoFocus}
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
          setFailure(null);
        }}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') setActive((index) => Math.min(index + 1, tools.length - 1));
          else if (event.key === 'ArrowUp') setActive((index) => Math.max(index - 1, 0));
          else if (event.key === 'Enter') {
            if (found.isPlaceholderData || found.isFetching) void pickBest();
            else pick(tools[Math.min(active, tools.length - 1)]);
          }
          else if (event.key === 'Escape' && onCancel) onCancel();
          else return;
          event.preventDefault();
        }}
      />
      {failure || found.error ? (
        <p className="field__error" role="alert">
          {t('recipe.search.failed', { reason: failure ?? found.error?.message })}
        </p>
      ) : null}
      {tools.length ? (
        <ul id={`${id}-list`} role="listbox" aria-label={t('recipe.search.results')} className="recipe-search__list">
          {tools.map((tool, index) => (
            <ToolOption key={tool.toolID} id={`${id}-${index}`} active={index === active} name={tool.displayName} onChoose={() => pick(tool)}>
              <code className="palette__slug">{tool.slug}</code>
              <span className="muted">{bundleName(tool.bundleID) ?? ''}</span>
              {tool.isEnabled ? null : <span className="badge badge--quiet">{t('recipe.search.off')}</span>}
            </ToolOption>
          ))}
        </ul>
      ) : (
        <p id={`${id}-list`} className="muted">
          {found.isFetching ? t('recipe.search.searching') : t('recipe.search.none')}
        </p>
      )}
      {onCancel ? (
        <button type="button" className="button button--small" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      ) : null}
    </div>
  );
}
