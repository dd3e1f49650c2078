import { useState } from 'react';
import type { Chat, ToolSelection } from '../../../shared/schemas/chat.js';
import { Modal, SaveCancelActions } from '../../components/Modal.js';
import { ToolPicker } from '../../components/ToolPicker.js';
import { useUpdateChat } from '../../queries/chats.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';

/** Which tools the model may call in this chat, whether to ask first, which it may never call, and the names it sees. */
export function ToolSelectionPanel({ chat, onClose }: { chat: Chat; onClose: () => void }) {
  const update = useUpdateChat();
  const [mode, setMode] = useState(chat.tools.mode);
  const [selected, setSelected] = useState<ToolSelection[]>(chat.tools.selected);
  const [failure, setFailure] = useState<string | null>(null);
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
      <ToolPicker selected={selected} onChange={setSelected} disabled={mode === 'none'} />
      <ErrorLine message={failure} />
      <SaveCancelActions onCancel={onClose} onSave={save} saveDisabled={update.isPending} />
    </Modal>
  );
}
