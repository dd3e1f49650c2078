import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { v7 as uuidv7 } from 'uuid';
import { usePutBundle } from '../../queries/tools.js';
import { bundleInputOf, type KeptBundle } from './bundle-input.js';
import { slugFrom } from './editor/draft.js';
import { errorMessage } from '../../components/ErrorLine.js';

interface BundleFormProps {
  /** Editing an existing bundle; absent to create one. */
  existing?: KeptBundle;
  onDone: (bundleID: string | null) => void;
}

/** Create or rename a bundle, inline in the Bundles region. */
export function BundleForm({ existing, onDone }: BundleFormProps) {
  const { t } = useTranslation();
  const id = useId();
  const put = usePutBundle();
  const [displayName, setDisplayName] = useState(existing?.displayName ?? '');
  const [description, setDescription] = useState(existing?.description ?? '');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const bundleID = existing?.bundleID ?? uuidv7();
    const slug = existing?.slug ?? (slugFrom(displayName) || 'bundle');
    put.mutate(
      // Renaming keeps the connection settings the tools inherit, and the bundle's hooks.
      existing ? { ...bundleInputOf(existing), displayName: displayName.trim(), description } : { bundleID, slug, displayName: displayName.trim(), description, isEnabled: true },
      {
        onSuccess: () => onDone(bundleID),
        onError: (failure) => setError(errorMessage(failure)),
      },
    );
  };

  return (
    <form className="bundle-form" aria-label={existing ? t('bundleForm.edit', { name: existing.displayName }) : t('bundleForm.new')} onSubmit={submit}>
      <label className="field__label" htmlFor={`${id}-name`}>
        {t('bundleForm.name')}
      </label>
      <input id={`${id}-name`} className="input" value={displayName} autoFocus onChange={(event) => setDisplayName(event.target.value)} required />
      <label className="field__label" htmlFor={`${id}-description`}>
        {t('bundleForm.description')}
      </label>
      <input id={`${id}-description`} className="input" value={description} onChange={(event) => setDescription(event.target.value)} />
      {error ? <p className="field__error">{error}</p> : null}
      <div className="arg-form__actions">
        <button type="submit" className="button button--primary button--small" disabled={!displayName.trim() || put.isPending}>
          {existing ? t('common.save') : t('bundleForm.create')}
        </button>
        <button type="button" className="button button--small" onClick={() => onDone(null)}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
