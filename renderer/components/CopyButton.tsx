import { useTranslation } from 'react-i18next';
import { useEffect, useState } from 'react';
import { CheckIcon, CopyIcon } from './icons.js';

/** Copies text and says so for a moment (or that it could not); the label names what is copied. */
export function CopyButton({ text, label, withText = false }: { text: string; label: string; withText?: boolean }) {
  const { t } = useTranslation();
  const [outcome, setOutcome] = useState<'copied' | 'failed' | null>(null);
  useEffect(() => {
    if (!outcome) return;
    const timer = setTimeout(() => setOutcome(null), 1_500);
    return () => clearTimeout(timer);
  }, [outcome]);
  const said = outcome === 'copied' ? t('common.copied') : outcome === 'failed' ? t('common.copyFailed') : label;
  return (
    <button
      type="button"
      className={withText ? 'button button--ghost' : 'icon-button'}
      aria-label={said}
      title={said}
      onClick={() => {
        const copying = navigator.clipboard ? navigator.clipboard.writeText(text) : Promise.reject(new Error('no clipboard'));
        copying.then(
          () => setOutcome('copied'),
          () => setOutcome('failed'),
        );
      }}
    >
      {outcome === 'copied' ? <CheckIcon size={16} /> : <CopyIcon size={16} />}
      {withText ? <span>{outcome === 'copied' ? t('common.copied') : label}</span> : null}
    </button>
  );
}
