import { Trans, useTranslation } from 'react-i18next';
import type { SecretStorageKind } from '../../../shared/schemas/secret-storage.js';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useApi } from '../../api/context.js';
import { TrashIcon } from '../../components/icons.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';

// How tools write a secret, and what a name looks like: the same in every language.
const SECRET_EXAMPLE = '${secret.NAME}';
const NAME_EXAMPLE = 'NAME';

/**
 * Secrets by name. Values are write-only: they can be set or replaced, never
 * shown again, and the field is cleared as soon as the value is saved.
 */
export function SecretsSection() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const api = useApi();
  const queryClient = useQueryClient();
  const secrets = useQuery({ queryKey: ['secrets', 'list'], queryFn: () => api.secrets.list() });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['secrets'] });
  const [name, setName] = useState('');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const put = useMutation({
    mutationFn: () => api.secrets.put({ name: name.trim(), value }),
    onSuccess: () => {
      setName('');
      setValue('');
      setError(null);
      void refresh();
    },
    onError: (failure) => setError(errorMessage(failure)),
  });
  const remove = useMutation({ mutationFn: (secret: string) => api.secrets.delete({ name: secret }), onSuccess: () => void refresh() });

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="card__title">
        {t('secrets.title')}
      </h2>
      <p className="muted card__description">
        <Trans i18nKey="secrets.description" values={{ example: SECRET_EXAMPLE }} components={[<code />]} />
        {secrets.data ? (
          <>
            {' '}
            <StorageSentence storage={secrets.data.storage} />
          </>
        ) : null}
      </p>
      {secrets.data?.secrets.length ? (
        <ul className="setting-list" aria-label={t('secrets.list')}>
          {secrets.data.secrets.map((secret) => (
            <li key={secret.name}>
              <code>{secret.name}</code>
              <span className="muted">{t('secrets.setAt', { when: new Date(secret.updatedAt).toLocaleString(i18n.language) })}</span>
              <button type="button" className="icon-button" aria-label={t('secrets.delete', { name: secret.name })} title={t('secrets.deleteShort')} onClick={() => remove.mutate(secret.name)}>
                <TrashIcon size={15} />
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{t('secrets.empty')}</p>
      )}
      <form
        className="inline-form"
        aria-label={t('secrets.form')}
        onSubmit={(event) => {
          event.preventDefault();
          put.mutate();
        }}
      >
        <label className="visually-hidden" htmlFor={`${id}-name`}>
          {t('secrets.name')}
        </label>
        <input id={`${id}-name`} className="input input--code" translate="no" placeholder={NAME_EXAMPLE} value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" />
        <label className="visually-hidden" htmlFor={`${id}-value`}>
          {t('secrets.value')}
        </label>
        <input id={`${id}-value`} className="input" type="password" placeholder={t('secrets.valuePlaceholder')} value={value} onChange={(event) => setValue(event.target.value)} autoComplete="new-password" />
        <button type="submit" className="button" disabled={!name.trim() || !value || put.isPending}>
          {t('secrets.set')}
        </button>
      </form>
      <ErrorLine message={error} />
    </section>
  );
}

/** How the secrets are kept, from the core's code; a key file's path and a keyring's name stay as they are. */
function StorageSentence({ storage }: { storage: { kind: SecretStorageKind; where?: string } }) {
  const { t } = useTranslation();
  const key = storage.kind === 'os' && storage.where ? 'secrets.storage.osWhere' : (`secrets.storage.${storage.kind}` as const);
  return <span>{t(key, { where: storage.where })}</span>;
}
