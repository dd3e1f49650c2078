import { useTranslation } from 'react-i18next';
import { i18n } from '../../i18n/index.js';
import { useEffect, useId, useState } from 'react';
import { AZURE_DEFAULT_API_VERSION, type ProviderKind, type ProviderView } from '../../../shared/schemas/provider.js';
import { PencilIcon, TrashIcon } from '../../components/icons.js';
import { useDeleteProvider, useModels, useProviders, usePutProvider, useTestProvider } from '../../queries/providers.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { useUiStore } from '../../state/ui.js';

/** The kinds in the order offered; each one's name and hint are the catalogue's `providers.kind.<kind>` and `providers.hint.<kind>`. */
const KINDS: readonly ProviderKind[] = ['openai', 'azure', 'anthropic', 'gemini', 'scripted'];

/** Model names as each server spells them: examples, the same in every language. */
const MODEL_EXAMPLES: Partial<Record<ProviderKind, string>> = { anthropic: 'claude-sonnet-4-5', gemini: 'gemini-2.5-flash', openai: 'gpt-4o-mini', scripted: 'gpt-4o-mini' };
const URL_EXAMPLE = 'https://…';

const message = (error: unknown) => errorMessage(error, i18n.t('common.noAnswer'));

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

/** A saved provider as `providers.put` takes it, with `changes`; no key means the stored key stays. */
function providerUpdate(provider: ProviderView, changes: { defaultModel: string }) {
  return {
    id: provider.id,
    kind: provider.kind,
    displayName: provider.displayName,
    ...(provider.baseURL ? { baseURL: provider.baseURL } : {}),
    ...(provider.apiVersion ? { apiVersion: provider.apiVersion } : {}),
    ...changes,
  };
}

/** Add or edit one provider. The key field is write-only: empty keeps the stored key. */
function ProviderForm({ existing, onDone }: { existing: ProviderView | null; onDone: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const put = usePutProvider();
  const [kind, setKind] = useState<ProviderKind>(existing?.kind ?? 'openai');
  const [displayName, setDisplayName] = useState(existing?.displayName ?? '');
  const [baseURL, setBaseURL] = useState(existing?.baseURL ?? '');
  const [apiKey, setApiKey] = useState('');
  const [defaultModel, setDefaultModel] = useState(existing?.defaultModel ?? '');
  const [apiVersion, setApiVersion] = useState(existing?.apiVersion ?? '');
  const [error, setError] = useState<string | null>(null);
  const hint = t(`providers.hint.${kind}`);
  return (
    <form
      className="provider-form"
      aria-label={existing ? t('providers.editForm', { name: existing.displayName }) : t('providers.addForm')}
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
          {t('providers.kindLabel')}
        </label>
        {/* Opening the form puts the caret in its first field (defect 9: focus stayed on the button). */}
        <select id={`${id}-kind`} className="input" value={kind} onChange={(event) => setKind(event.target.value as ProviderKind)} disabled={existing !== null} autoFocus={existing === null}>
          {KINDS.map((entry) => (
            <option key={entry} value={entry}>
              {t(`providers.kind.${entry}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-name`}>
          {t('providers.name')}
        </label>
        <input id={`${id}-name`} className="input" required maxLength={100} value={displayName} onChange={(event) => setDisplayName(event.target.value)} placeholder={t('providers.namePlaceholder')} autoFocus={existing !== null} />
      </div>
      {kind !== 'scripted' ? (
        <>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-url`}>
              {kind === 'azure' ? t('providers.endpoint') : t('providers.baseUrl')}
            </label>
            <input id={`${id}-url`} className="input" type="url" dir="ltr" translate="no" value={baseURL} onChange={(event) => setBaseURL(event.target.value)} placeholder={URL_EXAMPLE} aria-describedby={`${id}-url-help`} />
            <p id={`${id}-url-help`} className="field__help">
              {hint}
            </p>
          </div>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-key`}>
              {t('providers.apiKey')}
            </label>
            <input
              id={`${id}-key`}
              className="input"
              type="password"
              autoComplete="off"
              value={apiKey}
              onChange={(event) => setApiKey(event.target.value)}
              placeholder={existing?.hasApiKey ? t('providers.keyStored') : t('providers.keyNotNeeded')}
            />
          </div>
        </>
      ) : null}
      {kind === 'azure' ? (
        <div className="field">
          <label className="field__label" htmlFor={`${id}-api-version`}>
            {t('providers.apiVersion')}
          </label>
          <input id={`${id}-api-version`} className="input" value={apiVersion} onChange={(event) => setApiVersion(event.target.value)} placeholder={AZURE_DEFAULT_API_VERSION} />
        </div>
      ) : null}
      <div className="field">
        <label className="field__label" htmlFor={`${id}-model`}>
          {kind === 'azure' ? t('providers.defaultDeployment') : t('providers.defaultModel')}
        </label>
        <input id={`${id}-model`} className="input" translate="no" value={defaultModel} onChange={(event) => setDefaultModel(event.target.value)} placeholder={MODEL_EXAMPLES[kind] ?? t('providers.deploymentPlaceholder')} />
      </div>
      <ErrorLine message={error} />
      {!displayName.trim() ? <p className="field__help">{t('providers.needsName')}</p> : null}
      <div className="arg-form__actions">
        <button type="submit" className="button button--primary" disabled={put.isPending || !displayName.trim()}>
          {existing ? t('common.save') : t('providers.add')}
        </button>
        <button type="button" className="button button--ghost" onClick={onDone}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}

function ProviderRow({ provider, onEdit }: { provider: ProviderView; onEdit: () => void }) {
  const { t } = useTranslation();
  const test = useTestProvider();
  const remove = useDeleteProvider();
  const put = usePutProvider();
  const [showModels, setShowModels] = useState(false);
  const models = useModels(showModels ? provider.id : null);
  return (
    <li className="provider-row">
      <div className="provider-row__main">
        <strong>{provider.displayName}</strong> <span className="muted" translate="no">{` · ${provider.kind}${provider.baseURL ? ` · ${provider.baseURL}` : ''}`}</span>
        <br />
        <span className="muted">
          {provider.defaultModel ? t('providers.defaultModelIs', { model: provider.defaultModel }) : ''}
          {provider.kind === 'scripted' ? t('providers.noKeyNeeded') : provider.hasApiKey ? t('providers.keyIsStored') : t('providers.noKey')}
          {provider.source === 'environment' ? t('providers.fromEnvironment') : ''}
        </span>
      </div>
      <div className="provider-row__actions">
        <button type="button" className="button button--small" onClick={() => test.mutate(provider.id)} disabled={test.isPending}>
          {test.isPending ? t('providers.testing') : t('providers.test')}
        </button>
        <button type="button" className="button button--small button--ghost" onClick={() => setShowModels(!showModels)} aria-expanded={showModels}>
          {t('providers.models')}
        </button>
        {provider.source === 'saved' ? (
          <>
            <button type="button" className="icon-button" aria-label={t('providers.edit', { name: provider.displayName })} onClick={onEdit}>
              <PencilIcon size={15} />
            </button>
            <button type="button" className="icon-button" aria-label={t('providers.delete', { name: provider.displayName })} onClick={() => remove.mutate(provider.id)}>
              <TrashIcon size={15} />
            </button>
          </>
        ) : null}
      </div>
      {test.data ? (
        <p className="provider-row__result ok-text" role="status">
          {t('providers.testPassed', { message: test.data.message, ms: Math.round(test.data.latencyMs) })}
        </p>
      ) : null}
      {put.error ? <ErrorLine message={message(put.error)} /> : null}
      {test.error ? (
        <p className="provider-row__result field__error" role="alert">
          {message(test.error)}
        </p>
      ) : null}
      {showModels ? (
        <div className="provider-row__result">
          {models.isPending ? <p className="muted">{t('providers.asking')}</p> : null}
          {models.error ? <p className="field__error">{message(models.error)}</p> : null}
          {models.data ? (
            models.data.models.length ? (
              <ul className="provider-row__models" aria-label={t('providers.modelsOf', { name: provider.displayName })}>
                {models.data.models.map((model) => (
                  <li key={model.id} className="provider-row__model">
                    <code>{model.id}</code>
                    {model.id === provider.defaultModel ? (
                      <span className="badge badge--quiet">{t('providers.isDefault')}</span>
                    ) : provider.source !== 'saved' ? null : (
                      <button
                        type="button"
                        className="button button--small button--ghost"
                        aria-label={t('providers.useAsDefault', { model: model.id })}
                        disabled={put.isPending}
                        onClick={() => put.mutate(providerUpdate(provider, { defaultModel: model.id }))}
                      >
                        {t('providers.useShort')}
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="muted">{t('providers.noModels')}</p>
            )
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

/** Providers: add, edit, test, list models. Keys never come back to this window. */
export function ProvidersSection() {
  const { t } = useTranslation();
  const id = useId();
  const providers = useProviders();
  // Arriving from "Add one in Settings": the form is open, ready to type in.
  const [editing, setEditing] = useState<string | null>(() => (useUiStore.getState().addingProvider ? 'new' : null));
  const providerFormOpened = useUiStore((state) => state.providerFormOpened);
  useEffect(() => providerFormOpened(), [providerFormOpened]);
  const current = providers.data?.find((provider) => provider.id === editing) ?? null;
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <div className="card__title-row">
        <h2 id={`${id}-title`} className="card__title">
          {t('providers.title')}
        </h2>
        {editing === null ? (
          <button type="button" className="button button--small" onClick={() => setEditing('new')}>
            {t('providers.add')}
          </button>
        ) : null}
      </div>
      <p className="muted card__description">{t('providers.description')}</p>
      {providers.data?.length ? (
        <ul className="provider-list" aria-label={t('providers.list')}>
          {providers.data.map((provider) => (
            <ProviderRow key={provider.id} provider={provider} onEdit={() => setEditing(provider.id)} />
          ))}
        </ul>
      ) : providers.isPending ? null : (
        <p className="muted">{t('providers.empty')}</p>
      )}
      {editing !== null ? <ProviderForm key={editing} existing={editing === 'new' ? null : current} onDone={() => setEditing(null)} /> : null}
    </section>
  );
}
