import { useState } from 'react';
import type { Chat, ChatBundle, ToolDiscovery, ToolSelection } from '../../../shared/schemas/chat.js';
import { Modal, SaveCancelActions } from '../../components/Modal.js';
import { ToolPicker } from '../../components/ToolPicker.js';
import { useChatContext, useUpdateChat } from '../../queries/chats.js';
import { useSettings } from '../../queries/tools.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { BundlePicker } from './BundlePicker.js';

const DISCOVERY: { value: ToolDiscovery | 'default'; label: string }[] = [
  { value: 'default', label: 'As in Settings' },
  { value: 'auto', label: 'Automatic' },
  { value: 'search', label: 'Found by search' },
  { value: 'all', label: 'All on every turn' },
];

const tokens = (count: number) => `~${count.toLocaleString('en')} tokens`;

/**
 * Which tools the model may reach in this chat (picked ones, whole bundles),
 * how they are offered (all on every turn, or found by search), whether to
 * ask first, which it may never call, the names it sees, and what that costs.
 */
export function ToolSelectionPanel({ chat, onClose }: { chat: Chat; onClose: () => void }) {
  const update = useUpdateChat();
  const settings = useSettings();
  const [mode, setMode] = useState(chat.tools.mode);
  const [selected, setSelected] = useState<ToolSelection[]>(chat.tools.selected);
  const [bundles, setBundles] = useState<ChatBundle[]>(chat.tools.bundles ?? []);
  const [discovery, setDiscovery] = useState<ToolDiscovery | 'default'>(chat.tools.discovery ?? 'default');
  const [failure, setFailure] = useState<string | null>(null);
  const save = () => {
    setFailure(null);
    update.mutate(
      { chatId: chat.id, tools: { mode, selected, ...(bundles.length ? { bundles } : {}), ...(discovery === 'default' ? {} : { discovery }) } },
      { onSuccess: onClose, onError: (error) => setFailure(errorMessage(error, 'Could not save the selection.')) },
    );
  };
  const defaultDiscovery = settings.data?.toolDiscovery ?? 'auto';

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
      <ToolsNow chat={chat} />
      <label className="field tool-discovery">
        <span className="field__label">How the model gets them</span>
        <select className="input" value={discovery} disabled={mode === 'none'} onChange={(event) => setDiscovery(event.target.value as ToolDiscovery | 'default')}>
          {DISCOVERY.map((option) => (
            <option key={option.value} value={option.value}>
              {option.value === 'default' ? `${option.label} (${DISCOVERY.find((entry) => entry.value === defaultDiscovery)?.label.toLowerCase()})` : option.label}
            </option>
          ))}
        </select>
        <span className="field__help">
          Found by search: the model is offered the pinned tools and tool_search, and loads the others it needs. Automatic searches past 30 tools.
        </span>
      </label>
      <BundlePicker bundles={bundles} onChange={setBundles} disabled={mode === 'none'} />
      <ToolPicker selected={selected} onChange={setSelected} disabled={mode === 'none'} pinnable />
      <ErrorLine message={failure} />
      <SaveCancelActions onCancel={onClose} onSave={save} saveDisabled={update.isPending} />
    </Modal>
  );
}

/** What the chat reaches and offers as saved: how many tools, how many loaded by search, and the tokens against offering all. */
function ToolsNow({ chat }: { chat: Chat }) {
  const context = useChatContext(chat);
  const tools = context.data?.tools;
  if (!tools) return null;
  return (
    <p className="tool-discovery__now" role="status">
      {tools.mode === 'search'
        ? `${tools.reachable.toLocaleString('en')} tools reachable · ${tools.offered} offered now (${tools.loaded} loaded by search) · ${tokens(tools.offeredTokens)} per turn instead of ${tokens(tools.allTokens)}`
        : `${tools.reachable.toLocaleString('en')} tools, all offered · ${tokens(tools.allTokens)} per turn`}
      <span className="muted"> · {tools.reason}</span>
    </p>
  );
}
