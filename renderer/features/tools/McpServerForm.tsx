import { useId, useRef, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import type { ParamsOf } from '../../../shared/operation.js';
import type { Operations } from '../../../shared/operations/index.js';
import { errorMessage } from '../../components/ErrorLine.js';
import { Modal } from '../../components/Modal.js';
import { i18n } from '../../i18n/index.js';
import { useImportClaudeDesktop, useImportMcpServers } from '../../queries/mcp.js';
import { useInstallRequests, type InstallRequest } from '../../state/install-requests.js';
import { ASK_FIRST_CHOICES, askFirstOf, documentOf, draftOf, EMPTY_DRAFT, withAskFirst, type AskFirstChoice, type ServerDraft } from './mcp-server-draft.js';

const ASK_FIRST_LABELS = {
  ask: 'mcpForm.askFirstDefault',
  'as-annotated': 'mcpForm.askFirstAnnotated',
  never: 'mcpForm.askFirstNever',
  always: 'mcpForm.askFirstAlways',
} as const satisfies Record<AskFirstChoice, string>;

type PastedDocument = ParamsOf<Operations['mcpServers.import']>;

// Examples of what to type, the same in every language.
const NAME_EXAMPLE = 'filesystem';
const COMMAND_EXAMPLE = 'npx';
const URL_EXAMPLE = 'https://mcp.example.com/mcp';
const SECRET_FORM = '${secret.NAME}';
const ENV_FORM = '${env:NAME}';
const SERVER_KINDS: readonly ServerDraft['kind'][] = ['command', 'url'];

/**
 * What people paste: the whole `mcpServers` document of Claude Desktop,
 * Claude Code, Cursor or Windsurf, VS Code's `{ servers, inputs }`, or just
 * the inside ({ name: config }). A sentence says what is wrong with anything
 * else; the core checks each server.
 */
export function parseServers(text: string): { document: PastedDocument } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: i18n.t('mcpForm.notJson', { message: (error as Error).message }) };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value) || Object.keys(value).length === 0) {
    return { problem: i18n.t('mcpForm.pasteObject') };
  }
  const { mcpServers, servers, inputs } = value as Record<string, unknown>;
  const isObject = (entry: unknown): entry is Record<string, unknown> => Boolean(entry) && typeof entry === 'object' && !Array.isArray(entry);
  if (isObject(mcpServers)) return { document: { mcpServers } };
  if (isObject(servers)) return { document: { servers, ...(Array.isArray(inputs) ? { inputs } : {}) } };
  return { document: { mcpServers: value as Record<string, unknown> } };
}

/** The servers a pasted document holds, by name. */
function serversOf(document: PastedDocument): [string, unknown][] {
  return Object.entries(('mcpServers' in document ? document.mcpServers : document.servers) ?? {});
}

/**
 * "Add MCP server": a form (a command with its arguments and environment, or
 * a URL with its headers) with the same server as JSON beside it, each kept
 * in step with the other; paste another app's whole document into the JSON.
 * Add starts the servers and says why one did not.
 */
export function McpServerForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const add = useImportMcpServers();
  const fromClaude = useImportClaudeDesktop();
  const [draft, setDraftState] = useState<ServerDraft>(EMPTY_DRAFT);
  const [text, setText] = useState('');
  const [count, setCount] = useState(1);
  const [problem, setProblem] = useState<string | null>(null);
  const showInstall = useInstallRequests((state) => state.open);
  // The name takes focus when the form opens, not the ways to install one above it.
  const nameField = useRef<HTMLInputElement>(null);
  // "Find servers" and "Open a bundle" take this form's place.
  const openInstall = (request: InstallRequest) => {
    onDone();
    showInstall(request);
  };

  /** A field changed: the JSON follows. */
  const setDraft = (next: ServerDraft) => {
    setDraftState(next);
    setText(documentOf(next));
    setCount(1);
  };
  /** The JSON changed: the form follows when it holds one server it can show. */
  const setJson = (next: string) => {
    setText(next);
    const parsed = parseServers(next);
    if ('problem' in parsed) return;
    const servers = serversOf(parsed.document);
    setCount(servers.length);
    if (servers.length === 1) setDraftState(draftOf(servers[0]![0], servers[0]![1]));
  };

  /** After an import: close when every server started, else say which did not and why. */
  const settle = (servers: { name: string; state: string; error?: { message: string } }[]) => {
    const failed = servers.filter((server) => server.state === 'failed');
    if (failed.length === 0) onDone();
    else setProblem(failed.map((server) => t('mcpForm.failed', { name: server.name, message: server.error?.message ?? t('mcpForm.didNotStart') })).join(' '));
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const parsed = parseServers(text);
    if ('problem' in parsed) return setProblem(parsed.problem);
    setProblem(null);
    add.mutate(parsed.document, {
      onSuccess: ({ servers, secretsToSet }) => {
        if (secretsToSet?.length) setProblem(t('mcpForm.setSecrets', { names: secretsToSet }));
        else settle(servers);
      },
      onError: (failure) => setProblem(errorMessage(failure)),
    });
  };
  // Something to add: what is in the JSON view (the form writes there too as it is filled in).
  const ready = text.trim() !== '';
  const field = (key: 'command' | 'args' | 'env' | 'url' | 'headers', label: string, options: { rows?: number; placeholder?: string } = {}) => (
    <div className="field">
      <label className="field__label" htmlFor={`${id}-${key}`}>
        {label}
      </label>
      {options.rows ? (
        <textarea id={`${id}-${key}`} className="input input--mono" rows={options.rows} dir="ltr" spellCheck={false} value={draft[key]} onChange={(event) => setDraft({ ...draft, [key]: event.target.value })} />
      ) : (
        <input id={`${id}-${key}`} className="input input--mono" dir="ltr" spellCheck={false} placeholder={options.placeholder} value={draft[key]} onChange={(event) => setDraft({ ...draft, [key]: event.target.value })} />
      )}
    </div>
  );

  return (
    <Modal title={t('mcpForm.title')} wide onDismiss={onDone} initialFocus={nameField}>
      <p className="mcp-form__sources">
        {t('mcpForm.orInstall')}{' '}
        <button type="button" className="button button--small" onClick={() => openInstall({ kind: 'registry' })}>
          {t('mcpForm.findServers')}
        </button>{' '}
        <button type="button" className="button button--small" onClick={() => openInstall({ kind: 'mcpb' })}>
          {t('mcpForm.openBundle')}
        </button>
      </p>
      <form className="mcp-form" aria-label={t('mcpForm.title')} onSubmit={submit}>
        <fieldset className="mcp-form__fields" disabled={count > 1}>
          <legend className="visually-hidden">{t('mcpForm.fields')}</legend>
          <div className="field">
            <label className="field__label" htmlFor={`${id}-name`}>
              {t('mcpForm.name')}
            </label>
            <input ref={nameField} id={`${id}-name`} className="input" dir="ltr" placeholder={NAME_EXAMPLE} value={draft.name} onChange={(event) => setDraft({ ...draft, name: event.target.value })} />
          </div>
          <fieldset className="segmented">
            <legend className="field__label">{t('mcpForm.kind')}</legend>
            {SERVER_KINDS.map((kind) => (
              <label key={kind} className="segmented__option">
                <input type="radio" name={`${id}-kind`} checked={draft.kind === kind} onChange={() => setDraft({ ...draft, kind })} />
                <span>{kind === 'command' ? t('mcpForm.kindCommand') : t('mcpForm.kindUrl')}</span>
              </label>
            ))}
          </fieldset>
          {draft.kind === 'command' ? (
            <>
              {field('command', t('mcpForm.command'), { placeholder: COMMAND_EXAMPLE })}
              {field('args', t('mcpForm.args'), { rows: 3 })}
              {field('env', t('mcpForm.env'), { rows: 2 })}
            </>
          ) : (
            <>
              {field('url', t('mcpForm.url'), { placeholder: URL_EXAMPLE })}
              {field('headers', t('mcpForm.headers'), { rows: 3 })}
            </>
          )}
          <div className="field">
            <label className="field__label" htmlFor={`${id}-ask-first`}>
              {t('mcpForm.askFirst')}
            </label>
            <select id={`${id}-ask-first`} className="input" aria-describedby={`${id}-ask-first-help`} value={askFirstOf(draft)} onChange={(event) => setDraft(withAskFirst(draft, event.target.value as AskFirstChoice))}>
              {ASK_FIRST_CHOICES.map((choice) => (
                <option key={choice} value={choice}>
                  {t(ASK_FIRST_LABELS[choice])}
                </option>
              ))}
            </select>
            <p id={`${id}-ask-first-help`} className="muted field__help">
              {t('mcpForm.askFirstHelp')}
            </p>
          </div>
        </fieldset>
        <div className="mcp-form__document">
          <label className="field__label" htmlFor={`${id}-json`}>
            {t('mcpForm.json')}
          </label>
          <textarea id={`${id}-json`} className="input input--mono" rows={14} dir="ltr" value={text} placeholder={documentOf({ ...EMPTY_DRAFT, name: NAME_EXAMPLE, command: COMMAND_EXAMPLE })} spellCheck={false} onChange={(event) => setJson(event.target.value)} />
          <p className="muted field__help">
            <Trans i18nKey="mcpForm.jsonHelp" values={{ secret: SECRET_FORM, env: ENV_FORM }} components={[<code />, <code />, <code />, <code />]} />
          </p>
          {count > 1 ? <p className="field__help">{t('mcpForm.several', { count })}</p> : null}
        </div>
        {problem ? (
          <p className="field__error mcp-form__problem" role="alert">
            {problem}
          </p>
        ) : null}
        <div className="arg-form__actions mcp-form__actions">
          <button type="submit" className="button button--primary" disabled={!ready || add.isPending}>
            {add.isPending ? t('mcpForm.starting') : t('mcpForm.add')}
          </button>
          <button
            type="button"
            className="button"
            title={t('mcpForm.fromClaudeHint')}
            disabled={fromClaude.isPending}
            onClick={() => fromClaude.mutate(undefined, { onSuccess: ({ servers }) => settle(servers), onError: (failure) => setProblem(errorMessage(failure)) })}
          >
            {fromClaude.isPending ? t('mcpForm.importing') : t('mcpForm.fromClaude')}
          </button>
          <button type="button" className="button" onClick={onDone}>
            {problem && (add.isSuccess || fromClaude.isSuccess) ? t('mcpForm.close') : t('common.cancel')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
