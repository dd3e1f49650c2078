import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { usePatchSettings, useSettings } from '../../queries/tools.js';

// An address, the same in every language: where a local OpenTelemetry collector listens.
const EXAMPLE = 'http://localhost:4318/v1/traces';

/** Settings → Hooks → where each tool call goes as an OpenTelemetry span; empty, nowhere. */
export function TracesField() {
  const { t } = useTranslation();
  const id = useId();
  const settings = useSettings();
  const patch = usePatchSettings();
  const saved = settings.data?.otlpTracesUrl ?? '';
  const [draft, setDraft] = useState<string | null>(null);
  const value = draft ?? saved;
  const save = (event: React.FormEvent) => {
    event.preventDefault();
    if (patch.isPending || !settings.data) return;
    patch.mutate({ otlpTracesUrl: value.trim() }, { onSuccess: () => setDraft(null) });
  };
  return (
    <form className="hook-trial" onSubmit={save}>
      <h3 className="subhead">{t('traces.title')}</h3>
      <p className="muted" id={`${id}-hint`}>
        {t('traces.hint')}
      </p>
      <label className="field">
        <span className="field__label">{t('traces.label')}</span>
        <input className="input" type="url" dir="ltr" translate="no" value={value} placeholder={EXAMPLE} aria-describedby={`${id}-hint`} onChange={(change) => setDraft(change.target.value)} />
      </label>
      <div className="row">
        <button type="submit" className="button" aria-disabled={patch.isPending || !settings.data}>
          {t('traces.save')}
        </button>
        <span role="status" className="muted">
          {draft === null && patch.isSuccess ? (saved ? t('traces.on') : t('traces.off')) : ''}
        </span>
      </div>
      <ErrorLine message={patch.isError ? errorMessage(patch.error, t('common.saveFailed')) : null} />
    </form>
  );
}
