import { useId, useState } from 'react';
import { AZURE_DEFAULT_API_VERSION, type ProviderKind, type ProviderView } from '../../../shared/schemas/provider.js';
import { PencilIcon, TrashIcon } from '../../components/icons.js';
import { useDeleteProvider, useModels, useProviders, usePutProvider, useTestProvider } from '../../queries/chats.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';

const KINDS: { kind: ProviderKind; label: string; baseURL: string; hint: string }[] = [
  { kind: 'openai', label: 'OpenAI or compatible', baseURL: '', hint: 'Leave the base URL empty for api.openai.com; Ollama: http://127.0.0.1:11434/v1, LM Studio: http://127.0.0.1:1234/v1' },
  { kind: 'azure', label: 'Azure OpenAI', baseURL: '', hint: 'Your resource’s endpoint, such as https://my-resource.openai.azure.com' },
  { kind: 'anthropic', label: 'Anthropic', baseURL: '', hint: 'Leave the base URL empty for api.anthropic.com' },
  { kind: 'gemini', label: 'Google Gemini', baseURL: '', hint: 'Leave the base URL empty for generativelanguage.googleapis.com; the key is a Gemini API key' },
  { kind: 'scripted', label: 'Scripted (plays back fixed turns, no model)', baseURL: '', hint: 'Echoes your messages; useful to try tools without a model' },
];

const message = (error: unknown) => (errorMessage(error, 'The app did not answer; try again.'));

function slugFrom(name: string): string {
  return (
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'provider'
  );
}

/** Add or edit one provider. The key field is write-only: empty keeps the stored key. */
function ProviderForm({ existing, onDone }: { existing: ProviderView | null; onDone: () => void }) {
  const id = useId();
  const put = usePutProvider();
  const [kind, setKind] = useState<ProviderKind>(existing?.kind ?? 'openai');
  const [displayName, setDisplayName] = useState(existing?.displayName ?? '');
  const [baseURL, setBaseURL] = useState(existing?.baseURL ?? '');
  const [apiKey, setApiKey] = useState('');
  const [defaultModel, setDefaultModel] = useState(existing?.defaultModel ?? '');
  const [apiVersion, setApiVersion] = useState(existing?.apiVersion ?? '');
  const [error, setError] = useState<string | null>(null);
  const hint = KINDS.find((entry) => entry.kind === kind)?.hint;
  return (
    <form
      className="provider-form"
      aria-label={existing ? `Edit ${existing.displayName}` : 'Add a provider'}
      onSubmit={(event) => {
        event.preventDefault();
        setError(null);
        put.mutate(
          {
            id: existing?.id ?? slugFrom(displayName),
            kind,
            displayName: displayName.trim(),
            ...(baseURL.trim() ? { baseURL: baseURL.trim() } : {}),
            ...(apiKey ? { apiKey } : {}),
            ...(defaultModel.trim() ? { defaultModel: defaultModel.trim() } : {}),
            ...(kind === 'azure' && apiVersion.trim() ? { apiVersion: apiVersion.trim() } : {}),
          },
          { onSuccess: onDone, onError: (failure) => setError(message(failure)) },
        );
      }}
    >
      <div className="field">
        <label className="field__label" htmlFor={`${id}-kind`}>
          Kind
        </label>
        <select id={`${id}-kind`} className="input" value={kind} onChange={(event) => setKind(event.target.value as ProviderKind)} disabled={existing !== null}>
          {KINDS.map((entry) => (
            <option key={entry.kind} value={entry.kind}>
              {entry.label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-name`}>
          Name
        </label>
        <input id={`${id}-name`} className="input" required maxLength={100} value={displayName} onChange={(event) => setDisplayName(event.target.value)} placeholder="Work OpenAI" />
      </div>
      {kind !== 'scripted' ? (
        <>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-url`}>
              {kind === 'azure' ? 'Endpoint' : 'Base URL'}
            </label>
            <input id={`${id}-url`} className="input" type="url" value={baseURL} onChange={(event) => setBaseURL(event.target.value)} placeholder="https://…" aria-describedby={`${id}-url-help`} />
            <p id={`${id}-url-help`} className="field__help">
              {hint}
            </p>
          </div>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-key`}>
              API key
            </label>
            <input
              id={`${id}-key`}
              className="input"
              type="password"
              autoComplete="off"
              value={apiKey}
              onChange={(event) => setApiKey(event.target.value)}
              placeholder={existing?.hasApiKey ? 'Stored — type to replace' : 'Not needed for local servers'}
            />
          </div>
        </>
      ) : null}
      {kind === 'azure' ? (
        <div className="field">
          <label className="field__label" htmlFor={`${id}-api-version`}>
            API version
          </label>
          <input id={`${id}-api-version`} className="input" value={apiVersion} onChange={(event) => setApiVersion(event.target.value)} placeholder={AZURE_DEFAULT_API_VERSION} />
        </div>
      ) : null}
      <div className="field">
        <label className="field__label" htmlFor={`${id}-model`}>
          {kind === 'azure' ? 'Default deployment' : 'Default model'}
        </label>
        <input id={`${id}-model`} className="input" value={defaultModel} onChange={(event) => setDefaultModel(event.target.value)} placeholder={kind === 'anthropic' ? 'claude-sonnet-4-5' : kind === 'gemini' ? 'gemini-2.5-flash' : kind === 'azure' ? 'the deployment’s name' : 'gpt-4o-mini'} />
      </div>
      <ErrorLine message={error} />
      {!displayName.trim() ? <p className="field__help">Give the provider a name to add it.</p> : null}
      <div className="arg-form__actions">
        <button type="submit" className="button button--primary" disabled={put.isPending || !displayName.trim()}>
          {existing ? 'Save' : 'Add provider'}
        </button>
        <button type="button" className="button button--ghost" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function ProviderRow({ provider, onEdit }: { provider: ProviderView; onEdit: () => void }) {
  const test = useTestProvider();
  const remove = useDeleteProvider();
  const [showModels, setShowModels] = useState(false);
  const models = useModels(showModels ? provider.id : null);
  return (
    <li className="provider-row">
      <div className="provider-row__main">
        <strong>{provider.displayName}</strong> <span className="muted">· {provider.kind}{provider.baseURL ? ` · ${provider.baseURL}` : ''}</span>
        <br />
        <span className="muted">
          {provider.defaultModel ? `Default model ${provider.defaultModel} · ` : ''}
          {provider.kind === 'scripted' ? 'no key needed' : provider.hasApiKey ? 'API key stored' : 'no API key'}
          {provider.source === 'environment' ? ' · from environment variables' : ''}
        </span>
      </div>
      <div className="provider-row__actions">
        <button type="button" className="button button--small" onClick={() => test.mutate(provider.id)} disabled={test.isPending}>
          {test.isPending ? 'Testing…' : 'Test connection'}
        </button>
        <button type="button" className="button button--small button--ghost" onClick={() => setShowModels(!showModels)} aria-expanded={showModels}>
          Models
        </button>
        {provider.source === 'saved' ? (
          <>
            <button type="button" className="icon-button" aria-label={`Edit ${provider.displayName}`} onClick={onEdit}>
              <PencilIcon size={15} />
            </button>
            <button type="button" className="icon-button" aria-label={`Delete ${provider.displayName}`} onClick={() => remove.mutate(provider.id)}>
              <TrashIcon size={15} />
            </button>
          </>
        ) : null}
      </div>
      {test.data ? (
        <p className="provider-row__result ok-text" role="status">
          ✓ {test.data.message} ({Math.round(test.data.latencyMs)} ms)
        </p>
      ) : null}
      {test.error ? (
        <p className="provider-row__result field__error" role="alert">
          {message(test.error)}
        </p>
      ) : null}
      {showModels ? (
        <div className="provider-row__result">
          {models.isPending ? <p className="muted">Asking the server…</p> : null}
          {models.error ? <p className="field__error">{message(models.error)}</p> : null}
          {models.data ? (
            models.data.models.length ? (
              <ul className="provider-row__models" aria-label={`Models of ${provider.displayName}`}>
                {models.data.models.map((model) => (
                  <li key={model.id}>
                    <code>{model.id}</code>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">The server lists no models; set a default model.</p>
            )
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

/** Providers: add, edit, test, list models. Keys never come back to this window. */
export function ProvidersSection() {
  const id = useId();
  const providers = useProviders();
  const [editing, setEditing] = useState<string | null>(null);
  const current = providers.data?.find((provider) => provider.id === editing) ?? null;
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <div className="card__title-row">
        <h2 id={`${id}-title`} className="card__title">
          Providers
        </h2>
        {editing === null ? (
          <button type="button" className="button button--small" onClick={() => setEditing('new')}>
            Add provider
          </button>
        ) : null}
      </div>
      <p className="muted card__description">Models to chat with. API keys are stored encrypted as secrets and never shown again.</p>
      {providers.data?.length ? (
        <ul className="provider-list" aria-label="Providers">
          {providers.data.map((provider) => (
            <ProviderRow key={provider.id} provider={provider} onEdit={() => setEditing(provider.id)} />
          ))}
        </ul>
      ) : providers.isPending ? null : (
        <p className="muted">No provider yet. Add one to start chatting.</p>
      )}
      {editing !== null ? <ProviderForm key={editing} existing={editing === 'new' ? null : current} onDone={() => setEditing(null)} /> : null}
    </section>
  );
}
