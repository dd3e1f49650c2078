import { useRef } from 'react';
import { useLeaveGuard } from '../state/leave-guard.js';
import { Modal } from './Modal.js';

/** Asks before a step that would throw away unsaved edits; Esc keeps editing. */
export function LeaveDialog() {
  const pending = useLeaveGuard((state) => state.pending);
  const unsaved = useLeaveGuard((state) => state.unsaved);
  const discard = useLeaveGuard((state) => state.discard);
  const stay = useLeaveGuard((state) => state.stay);
  const keep = useRef<HTMLButtonElement>(null);
  if (!pending) return null;
  return (
    <Modal title="Discard unsaved changes?" onDismiss={stay} initialFocus={keep}>
      <p>You have not saved {unsaved ?? 'your changes'}. Leaving now throws them away.</p>
      <div className="arg-form__actions">
        <button ref={keep} type="button" className="button button--primary" onClick={stay}>
          Keep editing
        </button>
        <button type="button" className="button button--danger" onClick={discard}>
          Discard changes
        </button>
      </div>
    </Modal>
  );
}
