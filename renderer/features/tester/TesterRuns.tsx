import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../i18n/index.js';
import type { InvokeResult } from '../../../shared/schemas/invocation.js';
import type { TesterExample } from '../../../shared/schemas/tester.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { TrashIcon } from '../../components/icons.js';
import { relativeTime, useNow } from '../../components/relative-time.js';

export interface PastRun {
  id: string;
  at: string;
  version?: string;
  args: Record<string, unknown>;
  result: InvokeResult;
  cut?: boolean;
}

function verdict(result: InvokeResult): string {
  return result.ok ? (result.status !== undefined ? i18n.t('runs.http', { status: result.status }) : i18n.t('runs.ok')) : result.error.code;
}

/** One line of arguments: `city=Paris, days=3`, cut to what fits a row. */
function argsLine(args: Record<string, unknown>): string {
  const line = Object.entries(args)
    .map(([name, value]) => `${name}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
  return line.length > 80 ? `${line.slice(0, 79)}…` : line || i18n.t('runs.noArguments');
}

/** Past runs of this tool, newest first: look at one again, or run its arguments again. */
export function RunHistory({ runs, kept, shownId, onShow, onRunAgain }: { runs: PastRun[]; kept: boolean; shownId: string | null; onShow: (run: PastRun) => void; onRunAgain: (run: PastRun) => void }) {
  const { t } = useTranslation();
  const now = useNow();
  if (runs.length === 0) return null;
  return (
    <details className="history" open>
      <summary>
        {kept ? t('runs.title', { count: runs.length }) : t('runs.draftTitle', { count: runs.length })}
        {kept ? <span className="muted">{t('runs.kept')}</span> : null}
      </summary>
      <ul className="history__list" aria-label={t('runs.past')}>
        {runs.map((run) => (
          <li key={run.id} aria-current={shownId === run.id ? 'true' : undefined}>
            <button type="button" className="history__run" onClick={() => onShow(run)} title={new Date(run.at).toLocaleString(i18n.language)}>
              <span className={`status-pill ${run.result.ok ? 'status-pill--ok' : 'status-pill--bad'}`}>{verdict(run.result)}</span>
              <span className="history__args" translate="no" dir="ltr">
                {argsLine(run.args)}
              </span>
              <span className="muted">
                {t('runs.meta', { when: relativeTime(run.at, now), ms: Math.round(run.result.durationMs) })}
                {run.version ? ` · ${run.version}` : ''}
              </span>
            </button>
            <button type="button" className="button button--small button--ghost" onClick={() => onRunAgain(run)}>
              {t('runs.again')}
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** Named arguments to start from: Use fills the form; Save keeps what the form holds now. */
export function Examples({
  examples,
  onUse,
  onSave,
  onDelete,
  failure,
}: {
  examples: TesterExample[];
  onUse: (example: TesterExample) => void;
  onSave: (name: string) => void;
  onDelete: (name: string) => void;
  failure: unknown;
}) {
  const { t } = useTranslation();
  const [naming, setNaming] = useState<string | null>(null);
  return (
    <div className="examples">
      <div className="examples__head">
        <h3 className="subhead">{t('examples.title')}</h3>
        {naming === null ? (
          <button type="button" className="button button--small" onClick={() => setNaming('')}>
            {t('examples.saveAs')}
          </button>
        ) : null}
      </div>
      {naming !== null ? (
        <form
          className="inline-form"
          aria-label={t('examples.form')}
          onSubmit={(event) => {
            event.preventDefault();
            if (!naming.trim()) return;
            onSave(naming.trim());
            setNaming(null);
          }}
        >
          <label className="visually-hidden" htmlFor="example-name">
            {t('examples.name')}
          </label>
          <input
            id="example-name"
            className="input input--small"
            placeholder={t('examples.namePlaceholder')}
            maxLength={80}
            value={naming}
            autoFocus
            onChange={(event) => setNaming(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') {
                event.stopPropagation();
                setNaming(null);
              }
            }}
          />
          <button type="submit" className="button button--small button--primary" disabled={!naming.trim()}>
            {t('common.save')}
          </button>
        </form>
      ) : null}
      <ErrorLine message={failure ? errorMessage(failure, t('examples.saveFailed')) : null} />
      {examples.length === 0 ? (
        <p className="muted examples__empty">{t('examples.none')}</p>
      ) : (
        <ul className="history__list" aria-label={t('examples.title')}>
          {examples.map((example) => (
            <li key={example.name}>
              <button type="button" className="history__run" onClick={() => onUse(example)} title={t('examples.use')}>
                <strong>{example.name}</strong>
                <span className="history__args">{argsLine(example.args)}</span>
              </button>
              <button type="button" className="icon-button" aria-label={t('examples.delete', { name: example.name })} onClick={() => onDelete(example.name)}>
                <TrashIcon size={15} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
