import { useTranslation } from 'react-i18next';
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
  const { t } = useTranslation();
  if (!pending) return null;
  return (
    <Modal title={t('leave.title')} onDismiss={stay} initialFocus={keep}>
      <p>{t('leave.body', { what: unsaved ?? t('leave.yourChanges') })}</p>
      <div className="arg-form__actions">
        <button ref={keep} type="button" className="button button--primary" onClick={stay}>
          {t('leave.keep')}
        </button>
        <button type="button" className="button button--danger" onClick={discard}>
          {t('leave.discard')}
        </button>
      </div>
    </Modal>
  );
}
