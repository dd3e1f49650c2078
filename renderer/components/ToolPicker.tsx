import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useState } from 'react';
import type { ToolSelection } from '../../shared/schemas/chat.js';
import type { ToolView } from '../../shared/schemas/tool.js';
import { useApi } from '../api/context.js';
import { useBundleName } from '../queries/tools.js';

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

/**
 * Which tools a model may call, by search, grouped by bundle: for each
 * chosen one, whether to ask first, never to allow it, how much of a result
 * the model reads, and the name it sees. A chat and an agent tool choose alike.
 */
export function ToolPicker({ selected, onChange, disabled = false, hidden, pinnable = false }: ToolPickerProps) {
  const api = useApi();
  const id = useId();
  const bundleName = useBundleName();
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const tools = useQuery({
    queryKey: ['store', 'tool-picker', deferred],
    queryFn: async () => (await api.tools.search({ q: deferred, pageSize: 200 })).tools.filter((tool): tool is ToolView => tool.status === 'valid'),
    placeholderData: (previous) => previous,
  });
  const offered = (tools.data ?? []).filter((tool) => !hidden?.(tool));
  const byBundle = new Map<string, ToolView[]>();
  for (const tool of offered) byBundle.set(tool.bundleID, [...(byBundle.get(tool.bundleID) ?? []), tool]);
  const entryFor = (tool: ToolView) => selected.find((entry) => selectionKey(entry) === selectionKey(tool));
  const change = (tool: ToolView, patch: Partial<ToolSelection> | null) => {
    const rest = selected.filter((entry) => selectionKey(entry) !== selectionKey(tool));
    if (patch === null) return onChange(rest);
    const current = entryFor(tool) ?? { bundleID: tool.bundleID, slug: tool.slug, version: tool.version };
    const next = { ...current, ...patch };
    if (!next.as) delete next.as;
    if (!next.requiresApproval) delete next.requiresApproval;
    if (!next.denied) delete next.denied;
    if (!next.pinned) delete next.pinned;
    if (next.resultLimit === undefined) delete next.resultLimit;
    onChange([...rest, next]);
  };
  const denied = selected.filter((entry) => entry.denied).length;

  return (
    <>
      <label className="visually-hidden" htmlFor={`${id}-search`}>
        Search tools
      </label>
      <input id={`${id}-search`} className="input" placeholder="Search tools…" value={query} onChange={(event) => setQuery(event.target.value)} disabled={disabled} />
      <p className="muted">
        {selected.length - denied} selected
        {denied ? ` · ${denied} never allowed` : ''}
      </p>
      <div className="tool-picker" aria-disabled={disabled}>
        {[...byBundle].map(([bundleID, list]) => (
          <fieldset key={bundleID} className="tool-picker__bundle" disabled={disabled}>
            <legend>{bundleName(bundleID) ?? bundleID}</legend>
            {list.map((tool) => {
              const entry = entryFor(tool);
              return (
                <div key={tool.toolID} className="tool-picker__row">
                  <label className={`checkbox${entry?.denied ? ' tool-picker__name--denied' : ''}`}>
                    <input type="checkbox" checked={Boolean(entry)} onChange={(event) => change(tool, event.target.checked ? {} : null)} />
                    {tool.displayName} <code className="muted">{tool.slug}</code>
                    {entry?.denied ? <span className="badge badge--quiet">never allowed</span> : null}
                    {tool.requiresApproval ? <span className="badge badge--quiet">asks first</span> : null}
                  </label>
                  {entry ? <SelectionOptions aliasId={`${id}-alias-${tool.toolID}`} tool={tool} entry={entry} pinnable={pinnable} change={(patch) => change(tool, patch)} /> : null}
                </div>
              );
            })}
          </fieldset>
        ))}
        {tools.data && offered.length === 0 ? <p className="muted">No enabled tool matches.</p> : null}
      </div>
    </>
  );
}

function SelectionOptions({ aliasId, tool, entry, pinnable, change }: { aliasId: string; tool: ToolView; entry: ToolSelection; pinnable: boolean; change: (patch: Partial<ToolSelection>) => void }) {
  return (
    <span className="tool-picker__options">
      {pinnable ? (
        <label className="checkbox" title="Offered on every turn, also when the chat finds its other tools by search">
          <input type="checkbox" checked={Boolean(entry.pinned)} disabled={entry.denied} onChange={(event) => change({ pinned: event.target.checked })} />
          Always offer
        </label>
      ) : null}
      <label className="checkbox">
        <input type="checkbox" checked={Boolean(entry.requiresApproval)} disabled={entry.denied} onChange={(event) => change({ requiresApproval: event.target.checked })} />
        Ask before running
      </label>
      <label className="checkbox" title="Not offered to the model; a call it makes anyway is refused, and it is told so">
        <input type="checkbox" checked={Boolean(entry.denied)} onChange={(event) => change({ denied: event.target.checked })} />
        Never allow
      </label>
      <label className="tool-picker__limit" title="The model reads this much of each result; the whole value is kept">
        <input
          className="input input--small"
          inputMode="numeric"
          aria-label={`KB of ${tool.displayName}'s results the model reads`}
          placeholder="16"
          value={entry.resultLimit === undefined ? '' : String(entry.resultLimit / 1000)}
          onChange={(event) => {
            const kb = Number(event.target.value);
            change({ resultLimit: event.target.value.trim() && Number.isFinite(kb) ? Math.min(1000, Math.max(1, Math.round(kb))) * 1000 : undefined });
          }}
        />
        KB for the model
      </label>
      <label className="visually-hidden" htmlFor={aliasId}>
        Name the model sees for {tool.displayName}
      </label>
      <input
        id={aliasId}
        className="input input--small"
        placeholder="Alias (optional)"
        pattern="[a-zA-Z0-9_\-]{1,64}"
        value={entry.as ?? ''}
        onChange={(event) => change({ as: event.target.value })}
      />
    </span>
  );
}
