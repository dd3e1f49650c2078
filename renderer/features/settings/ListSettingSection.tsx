import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TrashIcon } from '../../components/icons.js';
import { usePatchSettings, useSettings } from '../../queries/tools.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';

interface ListSettingSectionProps {
  setting: 'allowedHosts' | 'readableFolders';
  title: string;
  description: ReactNode;
  inputLabel: string;
  placeholder: string;
  empty: string;
}

/** A settings list edited one entry at a time (allowed hosts, readable folders). */
export function ListSettingSection({ setting, title, description, inputLabel, placeholder, empty }: ListSettingSectionProps) {
  const { t } = useTranslation();
  const id = useId();
  const settings = useSettings();
  const patch = usePatchSettings();
  const [entry, setEntry] = useState('');
  const [error, setError] = useState<string | null>(null);
  // Until the list has come, there is nothing to add to: an entry added then would be saved as the whole list.
  const loaded = settings.data !== undefined;
  const values = settings.data?.[setting] ?? [];

  const save = (next: string[], onSuccess?: () => void) =>
    patch.mutate({ [setting]: next }, {
      onSuccess: () => {
        setError(null);
        onSuccess?.();
      },
      onError: (failure) => setError(errorMessage(failure, t('common.noAnswer'))),
    });

  return (
    <section className="card list-setting" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card__title">
        {title}
      </h2>
      <p className="muted card__description">{description}</p>
      {!loaded ? (
        <p className="muted" role="status">
          {settings.isError ? errorMessage(settings.error, t('common.noAnswer')) : t('common.loadingList')}
        </p>
      ) : values.length === 0 ? (
        <p className="muted">{empty}</p>
      ) : (
        <ul className="setting-list" aria-label={title}>
          {values.map((value) => (
            <li key={value}>
              <code>{value}</code>
              <button type="button" className="icon-button" aria-label={t('common.removeItem', { item: value })} title={t('common.remove')} onClick={() => save(values.filter((item) => item !== value))}>
                <TrashIcon size={15} />
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        className="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          const value = entry.trim();
          if (loaded && value && !values.includes(value)) save([...values, value], () => setEntry(''));
        }}
      >
        <label className="visually-hidden" htmlFor={`${id}-input`}>
          {inputLabel}
        </label>
        <input id={`${id}-input`} className="input" dir="ltr" translate="no" placeholder={placeholder} value={entry} onChange={(event) => setEntry(event.target.value)} />
        <button type="submit" className="button" disabled={!loaded || !entry.trim()}>
          {t('common.add')}
        </button>
      </form>
      <ErrorLine message={error} />
    </section>
  );
}
