import { forwardRef } from 'react';
import { useTranslation } from 'react-i18next';

interface FilePickerProps {
  /** What the file is, for screen readers (the input's name). */
  label: string;
  accept: string;
  /** The chosen file's name, shown beside the button. */
  chosen: string | null;
  onChoose: (file: File | undefined) => void;
}

/**
 * A file input that speaks the window's language: the browser's own says
 * "Choose File / No file chosen" in the system's language whatever Toolbelt
 * is set to. The real input stays (keyboard, screen readers, drops), hidden
 * behind a button-like label.
 */
export const FilePicker = forwardRef<HTMLInputElement, FilePickerProps>(function FilePicker({ label, accept, chosen, onChoose }, ref) {
  const { t } = useTranslation();
  return (
    <label className="file-picker">
      <input ref={ref} className="visually-hidden" type="file" accept={accept} aria-label={label} onChange={(event) => onChoose(event.target.files?.[0])} />
      <span className="button button--small" aria-hidden="true">
        {t('filePicker.choose')}
      </span>
      <span className="muted file-picker__name" dir="auto">
        {chosen ?? t('filePicker.none')}
      </span>
    </label>
  );
});
