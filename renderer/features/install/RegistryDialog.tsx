import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OFFICIAL_MCP_REGISTRY, type InstallPlan, type RegistryChoice, type RegistryEntry } from '../../../shared/schemas/mcp-install.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { Modal } from '../../components/Modal.js';
import { useRegistryInstall, useRegistryPlan, useRegistrySearch } from '../../queries/install.js';
import { useSettings } from '../../queries/tools.js';
import { useToolsUi } from '../../state/tools-ui.js';
import { useUiStore } from '../../state/ui.js';
import { InstallPlanView } from './InstallPlanView.js';

/** Typing settles this long before the registry is asked (each page is kept by the core for ten minutes). */
const SEARCH_SETTLE_MS = 250;

/**
 * "Find servers": an MCP registry searched as the person types (the
 * official one, or one of theirs from Settings), a page at a time; an entry
 * opened shows how it can run (a remote, a package), asks for what that
 * needs, and shows exactly what would be added before anything is.
 */
export function RegistryDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const settings = useSettings();
  const registries = [OFFICIAL_MCP_REGISTRY, ...(settings.data?.mcpRegistries ?? [])];
  const [registry, setRegistry] = useState(OFFICIAL_MCP_REGISTRY);
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  const [open, setOpen] = useState<RegistryEntry | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(typed.trim());
      setCursors([]);
    }, SEARCH_SETTLE_MS);
    return () => clearTimeout(timer);
  }, [typed]);
  const cursor = cursors.at(-1);
  const page = useRegistrySearch({ registry, search: search || undefined, cursor, limit: 20 }, open === null);
  if (open) return <EntryDialog registry={registry} entry={open} onBack={() => setOpen(null)} onClose={onClose} />;
  return (
    <Modal title={t('registry.title')} wide onDismiss={onClose}>
      <div className="install-dialog registry">
        <div className="registry__bar">
          <label className="visually-hidden" htmlFor={`${id}-search`}>
            {t('registry.search')}
          </label>
          <input id={`${id}-search`} className="input" type="search" autoFocus placeholder={t('registry.searchPlaceholder')} value={typed} onChange={(event) => setTyped(event.target.value)} />
          {registries.length > 1 ? (
            <select className="input registry__source" aria-label={t('registry.source')} value={registry} onChange={(event) => {
              setRegistry(event.target.value);
              setCursors([]);
            }}>
              {registries.map((url) => (
                <option key={url} value={url}>
                  {url === OFFICIAL_MCP_REGISTRY ? t('registry.official') : url}
                </option>
              ))}
            </select>
          ) : null}
        </div>
        {page.data?.offline ? <p className="install-dialog__warning">{t('registry.offline')}</p> : null}
        <ErrorLine message={page.isError ? errorMessage(page.error) : null} />
        {page.isPending ? (
          <p role="status" className="muted">
            {t('registry.searching')}
          </p>
        ) : page.data && page.data.servers.length === 0 ? (
          <p className="muted registry__empty">{search ? t('registry.noneFor', { search }) : t('registry.none')}</p>
        ) : (
          <ul className="list registry__results" aria-label={t('registry.results')}>
            {page.data?.servers.map((entry) => (
              <li key={`${entry.name}@${entry.version}`} className="list__row">
                <button type="button" className="list__item" onClick={() => setOpen(entry)}>
                  <span className="list__main">
                    <span className="list__title">
                      <bdi>{entry.title ?? entry.name}</bdi> <span className="muted">{entry.version}</span>
                      {entry.status && entry.status !== 'active' ? <span className="badge">{entry.status}</span> : null}
                    </span>
                    <span className="list__meta" dir="auto">
                      {entry.description}
                    </span>
                    <span className="list__meta" dir="ltr">
                      {entry.name}
                    </span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
        <div className="arg-form__actions">
          {cursors.length ? (
            <button type="button" className="button" onClick={() => setCursors(cursors.slice(0, -1))}>
              {t('registry.previous')}
            </button>
          ) : null}
          {page.data?.nextCursor ? (
            <button type="button" className="button" onClick={() => setCursors([...cursors, page.data.nextCursor!])}>
              {t('registry.next')}
            </button>
          ) : null}
          <button type="button" className="button" onClick={onClose}>
            {t('common.close')}
          </button>
        </div>
      </div>
    </Modal>
  );
}

/** One entry: pick how it runs, give what it asks, see the exact server, add it. */
function EntryDialog({ registry, entry, onBack, onClose }: { registry: string; entry: RegistryEntry; onBack: () => void; onClose: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const runnable = entry.choices.filter((choice) => !choice.unsupported);
  const [choiceId, setChoiceId] = useState(runnable[0]?.id ?? entry.choices[0]?.id ?? '');
  const choice = entry.choices.find((candidate) => candidate.id === choiceId);
  const [values, setValues] = useState<Record<string, string>>({});
  const [plan, setPlan] = useState<InstallPlan | null>(null);
  const review = useRegistryPlan();
  const install = useRegistryInstall();
  const selectBundle = useToolsUi((state) => state.selectBundle);
  const goTo = useUiStore((state) => state.goTo);
  const params = { registry, name: entry.name, version: entry.version, choice: choiceId, values };
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!plan) return review.mutate(params, { onSuccess: setPlan });
    install.mutate(params, {
      onSuccess: (server) => {
        onClose();
        goTo('tools');
        selectBundle(server.bundleID);
      },
    });
  };
  const change = (next: Partial<{ choiceId: string; values: Record<string, string> }>) => {
    if (next.choiceId !== undefined) setChoiceId(next.choiceId);
    if (next.values) setValues(next.values);
    setPlan(null);
  };
  return (
    <Modal title={entry.title ?? entry.name} wide onDismiss={onClose}>
      <form className="install-dialog" onSubmit={submit} aria-label={t('registry.entryLabel', { name: entry.name })}>
        <p className="install-dialog__lead" dir="ltr">
          {entry.name} · {entry.version}
        </p>
        <p dir="auto">{entry.description}</p>
        {entry.statusMessage ? <p className="install-dialog__warning">{entry.statusMessage}</p> : null}
        {entry.repository ? (
          <p>
            <a href={entry.repository} target="_blank" rel="noreferrer noopener" dir="ltr">
              {entry.repository}
            </a>
          </p>
        ) : null}
        {entry.choices.length === 0 ? <p className="field__error">{t('registry.nothingToRun')}</p> : null}
        <fieldset className="install-dialog__settings">
          <legend className="field__label">{t('registry.howItRuns')}</legend>
          {entry.choices.map((candidate) => (
            <label key={candidate.id} className="segmented__option registry__choice">
              <input type="radio" name={`${id}-choice`} checked={candidate.id === choiceId} disabled={Boolean(candidate.unsupported)} onChange={() => change({ choiceId: candidate.id })} />
              <span>
                {candidate.kind === 'remote' ? t('registry.remote', { type: candidate.type }) : t('registry.package', { type: candidate.type })}{' '}
                <code dir="ltr">{candidate.label}</code>
                {candidate.unsupported ? <span className="muted"> — {candidate.unsupported}</span> : null}
              </span>
            </label>
          ))}
        </fieldset>
        {choice ? <ChoiceInputs id={id} choice={choice} values={values} onChange={(next) => change({ values: next })} /> : null}
        {plan ? <InstallPlanView plan={plan} /> : null}
        <ErrorLine message={review.isError ? errorMessage(review.error) : install.isError ? errorMessage(install.error) : null} />
        <div className="arg-form__actions">
          <button type="submit" className="button button--primary" disabled={!choice || Boolean(choice.unsupported) || review.isPending || install.isPending}>
            {plan ? (install.isPending ? t('registry.adding') : t('registry.add')) : t('registry.review')}
          </button>
          <button type="button" className="button" onClick={onBack}>
            {t('registry.back')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

function ChoiceInputs({ id, choice, values, onChange }: { id: string; choice: RegistryChoice; values: Record<string, string>; onChange: (values: Record<string, string>) => void }) {
  const { t } = useTranslation();
  if (choice.inputs.length === 0) return null;
  return (
    <fieldset className="install-dialog__settings">
      <legend className="field__label">{t('registry.values')}</legend>
      {choice.inputs.map((input, index) => {
        const fieldId = id + String(index);
        return (
          <div key={input.key} className="field">
            <label className="field__label" htmlFor={fieldId}>
              <code dir="ltr">{input.label}</code>
              {input.required ? <span aria-hidden="true"> *</span> : null}
              {input.secret ? <span className="badge">{t('mcpb.keptSecret')}</span> : null}
            </label>
            {input.choices?.length ? (
              <select id={fieldId} className="input" value={values[input.key] ?? input.default ?? ''} onChange={(event) => onChange({ ...values, [input.key]: event.target.value })}>
                {input.choices.map((option) => (
                  <option key={option} value={option}>
                    {option}
                  </option>
                ))}
              </select>
            ) : (
              <input
                id={fieldId}
                className="input"
                dir="ltr"
                type={input.secret ? 'password' : 'text'}
                autoComplete="off"
                spellCheck={false}
                required={input.required}
                placeholder={input.placeholder ?? input.default}
                value={values[input.key] ?? ''}
                onChange={(event) => onChange({ ...values, [input.key]: event.target.value })}
              />
            )}
            {input.description ? <p className="muted field__help">{input.description}</p> : null}
          </div>
        );
      })}
    </fieldset>
  );
}
