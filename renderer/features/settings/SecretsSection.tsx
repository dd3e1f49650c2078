import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useApi } from '../../api/context.js';
import { TrashIcon } from '../../components/icons.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';

/**
 * Secrets by name. Values are write-only: they can be set or replaced, never
 * shown again, and the field is cleared as soon as the value is saved.
 */
export function SecretsSection() {
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
        Secrets
      </h2>
      <p className="muted card__description">
        Tools refer to secrets as <code>{'${secret.NAME}'}</code>. Values are encrypted and never shown again.
        {secrets.data ? ` ${secrets.data.storage.description}.` : ''}
      </p>
      {secrets.data?.secrets.length ? (
        <ul className="setting-list" aria-label="Secrets">
          {secrets.data.secrets.map((secret) => (
            <li key={secret.name}>
              <code>{secret.name}</code>
              <span className="muted">set {new Date(secret.updatedAt).toLocaleString()}</span>
              <button type="button" className="icon-button" aria-label={`Delete secret ${secret.name}`} title="Delete" onClick={() => remove.mutate(secret.name)}>
                <TrashIcon size={15} />
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No secrets yet.</p>
      )}
      <form
        className="inline-form"
        aria-label="Set a secret"
        onSubmit={(event) => {
          event.preventDefault();
          put.mutate();
        }}
      >
        <label className="visually-hidden" htmlFor={`${id}-name`}>
          Secret name
        </label>
        <input id={`${id}-name`} className="input input--code" placeholder="NAME" value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" />
        <label className="visually-hidden" htmlFor={`${id}-value`}>
          Secret value
        </label>
        <input id={`${id}-value`} className="input" type="password" placeholder="value" value={value} onChange={(event) => setValue(event.target.value)} autoComplete="new-password" />
        <button type="submit" className="button" disabled={!name.trim() || !value || put.isPending}>
          Set
        </button>
      </form>
      <ErrorLine message={error} />
    </section>
  );
}
