import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import type { Chat, ToolSelection } from '../../../shared/schemas/chat.js';
import type { ToolView } from '../../../shared/schemas/tool.js';
import { Modal, SaveCancelActions } from '../../components/Modal.js';
import { useApi } from '../../api/context.js';
import { useUpdateChat } from '../../queries/chats.js';
import { useBundles } from '../../queries/tools.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';

const keyOf = (entry: { bundleID: string; slug: string; version: string }) => `${entry.bundleID}/${entry.slug}/${entry.version}`;

/** Which tools the model may call in this chat, whether to ask first, which it may never call, and the names it sees. */
export function ToolSelectionPanel({ chat, onClose }: { chat: Chat; onClose: () => void }) {
  const api = useApi();
  const update = useUpdateChat();
  const bundles = useBundles(false);
  const [mode, setMode] = useState(chat.tools.mode);
  const [selected, setSelected] = useState<ToolSelection[]>(chat.tools.selected);
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  const [failure, setFailure] = useState<string | null>(null);
  const tools = useQuery({
    queryKey: ['store', 'chat-tool-picker', deferred],
    queryFn: async () => (await api.tools.search({ q: deferred, pageSize: 200 })).tools.filter((tool): tool is ToolView => tool.status === 'valid'),
    placeholderData: (previous) => previous,
  });
  const byBundle = new Map<string, ToolView[]>();
  for (const tool of tools.data ?? []) byBundle.set(tool.bundleID, [...(byBundle.get(tool.bundleID) ?? []), tool]);
  const bundleName = (bundleID: string) => {
    const bundle = bundles.data?.bundles.find((entry) => entry.bundleID === bundleID);
    return bundle?.status === 'valid' ? bundle.displayName : bundleID;
  };
  const entryFor = (tool: ToolView) => selected.find((entry) => keyOf(entry) === keyOf(tool));
  const change = (tool: ToolView, patch: Partial<ToolSelection> | null) => {
    const rest = selected.filter((entry) => keyOf(entry) !== keyOf(tool));
    if (patch === null) return setSelected(rest);
    const current = entryFor(tool) ?? { bundleID: tool.bundleID, slug: tool.slug, version: tool.version };
    const next = { ...current, ...patch };
    if (!next.as) delete next.as;
    if (!next.requiresApproval) delete next.requiresApproval;
    if (!next.denied) delete next.denied;
    if (next.resultLimit === undefined) delete next.resultLimit;
    setSelected([...rest, next]);
  };
  const save = () => {
    setFailure(null);
    update.mutate(
      { chatId: chat.id, tools: { mode, selected } },
      { onSuccess: onClose, onError: (error) => setFailure(errorMessage(error, 'Could not save the selection.')) },
    );
  };

  return (
    <Modal title="Tools for this chat" wide onDismiss={onClose}>
      <fieldset className="segmented tool-picker__mode">
        <legend className="visually-hidden">Tool use</legend>
        {(['auto', 'none'] as const).map((option) => (
          <label key={option} className="segmented__option">
            <input type="radio" name="tool-mode" checked={mode === option} onChange={() => setMode(option)} />
            <span>{option === 'auto' ? 'Selected tools' : 'No tools'}</span>
          </label>
        ))}
      </fieldset>
      <label className="visually-hidden" htmlFor="tool-picker-search">
        Search tools
      </label>
      <input id="tool-picker-search" className="input" placeholder="Search tools…" value={query} onChange={(event) => setQuery(event.target.value)} disabled={mode === 'none'} />
      <p className="muted">
        {selected.length - selected.filter((entry) => entry.denied).length} selected
        {selected.some((entry) => entry.denied) ? ` · ${selected.filter((entry) => entry.denied).length} never allowed` : ''}
      </p>
      <div className="tool-picker" aria-disabled={mode === 'none'}>
        {[...byBundle].map(([bundleID, list]) => (
          <fieldset key={bundleID} className="tool-picker__bundle" disabled={mode === 'none'}>
            <legend>{bundleName(bundleID)}</legend>
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
                  {entry ? (
                    <span className="tool-picker__options">
                      <label className="checkbox">
                        <input type="checkbox" checked={Boolean(entry.requiresApproval)} disabled={entry.denied} onChange={(event) => change(tool, { requiresApproval: event.target.checked })} />
                        Ask before running
                      </label>
                      <label className="checkbox" title="Not offered to the model; a call it makes anyway is refused, and it is told so">
                        <input type="checkbox" checked={Boolean(entry.denied)} onChange={(event) => change(tool, { denied: event.target.checked })} />
                        Never allow
                      </label>
                      <label className="tool-picker__limit" title="The model reads this much of each result; the chat keeps the whole value">
                        <input
                          className="input input--small"
                          inputMode="numeric"
                          aria-label={`KB of ${tool.displayName}'s results the model reads`}
                          placeholder="16"
                          value={entry.resultLimit === undefined ? '' : String(entry.resultLimit / 1000)}
                          onChange={(event) => {
                            const kb = Number(event.target.value);
                            change(tool, { resultLimit: event.target.value.trim() && Number.isFinite(kb) ? Math.min(1000, Math.max(1, Math.round(kb))) * 1000 : undefined });
                          }}
                        />
                        KB for the model
                      </label>
                      <label className="visually-hidden" htmlFor={`alias-${tool.toolID}`}>
                        Name the model sees for {tool.displayName}
                      </label>
                      <input
                        id={`alias-${tool.toolID}`}
                        className="input input--small"
                        placeholder="Alias (optional)"
                        pattern="[a-zA-Z0-9_\-]{1,64}"
                        value={entry.as ?? ''}
                        onChange={(event) => change(tool, { as: event.target.value })}
                      />
                    </span>
                  ) : null}
                </div>
              );
            })}
          </fieldset>
        ))}
        {tools.data?.length === 0 ? <p className="muted">No enabled tool matches.</p> : null}
      </div>
      <ErrorLine message={failure} />
      <SaveCancelActions onCancel={onClose} onSave={save} saveDisabled={update.isPending} />
    </Modal>
  );
}
