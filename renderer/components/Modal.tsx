import { useTranslation } from 'react-i18next';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { wrapTab } from './tab-wrap.js';

interface ModalProps {
  title: string;
  /** Esc, the backdrop, or a close button: what "dismiss" means is the caller's (deny, cancel, close). */
  onDismiss: () => void;
  children: ReactNode;
  description?: ReactNode;
  wide?: boolean;
  /** The element that takes focus when the dialog opens (else the first focusable one). */
  initialFocus?: React.RefObject<HTMLElement | null>;
}

/**
 * A modal on the native <dialog>: the browser makes the page behind inert,
 * Tab wraps around inside it (`tab-wrap.ts`), focus goes back to its opener on
 * close; Esc becomes onDismiss.
 */
export function Modal({ title, onDismiss, children, description, wide, initialFocus }: ModalProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // What had focus before: the browser gives it back when a dialog closes, but not when React has already taken the
    // dialog out of the page (an unmount), which is how these close; then it is given back here.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    initialFocus?.current?.focus();
    return () => {
      dialog.close();
      const lost = document.activeElement === null || document.activeElement === document.body;
      if (lost && opener?.isConnected) opener.focus();
    };
    // Opened once per mount; focus moves only then.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <dialog
      ref={ref}
      className={`modal${wide ? ' modal--wide' : ''}`}
      aria-labelledby={titleId}
      onKeyDown={wrapTab}
      onCancel={(event) => {
        event.preventDefault();
        onDismiss();
      }}
    >
      <header className="modal__header">
        <h2 id={titleId} className="modal__title">
          {title}
        </h2>
        {description ? <div className="modal__description">{description}</div> : null}
      </header>
      <div className="modal__body">{children}</div>
    </dialog>
  );
}

/** Cancel, then whatever a dialog's next step is, at its foot. */
export function CancelAnd({ onCancel, children }: { onCancel: () => void; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="modal__actions">
      <button type="button" className="button" onClick={onCancel}>
        {t('common.cancel')}
      </button>
      {children}
    </div>
  );
}

/**
 * Save and Cancel at the foot of a dialog. Save submits the form around it
 * when there is one (so Enter in a field saves), else calls onSave.
 */
export function SaveCancelActions({ onCancel, onSave, saveDisabled = false }: { onCancel: () => void; onSave?: () => void; saveDisabled?: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="modal__actions">
      <button type={onSave ? 'button' : 'submit'} className="button button--primary" onClick={onSave} disabled={saveDisabled}>
        {t('common.save')}
      </button>
      <button type="button" className="button" onClick={onCancel}>
        {t('common.cancel')}
      </button>
    </div>
  );
}
