import { useTranslation } from 'react-i18next';
import { useMemo, useRef, useState } from 'react';
import { argumentCandidates, draftFromCurl, type CurlDraft } from '../../curl/curl-draft.js';
import { CurlImportError, parseCurl, type ParsedCurl } from '../../curl/curl-import.js';
import { useApi } from '../../../api/context.js';
import { ErrorLine, errorMessage } from '../../../components/ErrorLine.js';
import { CancelAnd, Modal } from '../../../components/Modal.js';

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** An example of what to paste: a command reads the same in every language. */
const COMMAND_EXAMPLE = "curl https://api.example.com/v1/items -H 'Authorization: Bearer …'";

/**
 * A cURL command (from an API's docs, a browser's "Copy as cURL", a
 * terminal) as the editor's HTTP tool: the person picks which values become
 * arguments; credentials found in it are saved as secrets (values go to the
 * secret store, only their names into the tool).
 */
export function CurlImportDialog({ onClose, onUse }: { onClose: () => void; onUse: (draft: CurlDraft, parsed: ParsedCurl) => void }) {
  const { t } = useTranslation();
  const api = useApi();
  const box = useRef<HTMLTextAreaElement>(null);
  const [command, setCommand] = useState('');
  const [parsed, setParsed] = useState<ParsedCurl | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [saving, setSaving] = useState(false);
  const candidates = useMemo(() => (parsed ? argumentCandidates(parsed) : []), [parsed]);
  const draft = useMemo(() => (parsed ? draftFromCurl(parsed, chosen) : null), [parsed, chosen]);

  const read = () => {
    try {
      const result = parseCurl(command);
      setParsed(result);
      setChosen(new Set());
      setProblem(null);
    } catch (error) {
      setParsed(null);
      setProblem(error instanceof CurlImportError ? error.message : t('curl.couldNotRead', { message: String(error) }));
    }
  };

  const use = async () => {
    if (!draft || !parsed) return;
    setSaving(true);
    try {
      // Values found in the command become secrets now; the tool only names them.
      for (const secret of draft.secrets) if (secret.value !== undefined) await api.secrets.put({ name: secret.name, value: secret.value });
      onUse(draft, parsed);
    } catch (error) {
      setProblem(errorMessage(error));
      setSaving(false);
    }
  };

  return (
    <Modal title={t('curl.title')} wide onDismiss={onClose} initialFocus={box} description={t('curl.description')}>
      <form
        className="chat-settings"
        aria-label={t('curl.command')} dir="ltr"
        onSubmit={(event) => {
          event.preventDefault();
          read();
        }}
      >
        <textarea ref={box} className="input import-api__text" aria-label={t('curl.command')} dir="ltr" rows={5} value={command} placeholder={COMMAND_EXAMPLE} onChange={(event) => setCommand(event.target.value)} />
        <div className="arg-form__actions">
          <button type="submit" className="button" disabled={!command.trim()}>
            {parsed ? t('curl.readAgain') : t('curl.read')}
          </button>
        </div>
        <ErrorLine message={problem} />
      </form>
      {parsed && draft ? (
        <section className="import-api__preview" aria-label={t('curl.preview')}>
          <p>
            <code>
              {parsed.method} {draft.impl.urlTemplate}
            </code>
          </p>
          {parsed.warnings.map((warning) => (
            <p key={warning} className="field__hint">
              {warning}
            </p>
          ))}
          {candidates.length ? (
            <fieldset className="import-api__source">
              <legend className="field__label">{t('curl.arguments')}</legend>
              <ul className="import-api__operations" aria-label={t('curl.values')}>
                {candidates.map((candidate) => (
                  <li key={candidate.id} className="import-api__operation">
                    <label>
                      <input
                        type="checkbox"
                        checked={chosen.has(candidate.id)}
                        onChange={(event) =>
                          setChosen((current) => {
                            const next = new Set(current);
                            if (event.target.checked) next.add(candidate.id);
                            else next.delete(candidate.id);
                            return next;
                          })
                        }
                      />
                      <span className="import-api__method">{candidate.where}</span>
                      <span className="import-api__path">{candidate.name}</span>
                      <span className="import-api__slug">{show(candidate.value)}</span>
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>
          ) : null}
          {draft.secrets.length ? (
            <p className="field__hint">
              {t('curl.secrets', {
                list: draft.secrets.map((secret) => t(secret.value === undefined ? 'curl.secretToSet' : 'curl.secretSaved', { name: secret.name, found: secret.found })).join('; '),
              })}
            </p>
          ) : null}
          <CancelAnd onCancel={onClose}>
            <button type="button" className="button button--primary" disabled={saving} onClick={() => void use()}>
              {saving ? t('curl.saving') : t('curl.use')}
            </button>
          </CancelAnd>
        </section>
      ) : (
        <CancelAnd onCancel={onClose} />
      )}
    </Modal>
  );
}
