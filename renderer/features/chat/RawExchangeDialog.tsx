import { useTranslation } from 'react-i18next';
import { useState, type ReactNode } from 'react';
import type { RawExchange } from '../../../shared/schemas/raw-exchange.js';
import { CopyButton } from '../../components/CopyButton.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { Modal } from '../../components/Modal.js';
import { useRawExchanges } from '../../queries/raw-exchanges.js';

/** A JSON request body laid out to read; anything else as it is. */
function readable(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** The status line as HTTP writes it, the same in every language. */
function httpStatus(status: number | undefined): string {
  return `HTTP ${status ?? '?'}`;
}

function headerLines(headers: Record<string, string> | undefined): string {
  return Object.entries(headers ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

/** One message of an exchange: its body in sight, its headers folded above it (a dozen lines of them hid the body). */
function Message({ label, headers, children }: { label: string; headers: Record<string, string> | undefined; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div role="group" aria-label={label}>
      <details className="raw-exchange__headers">
        <summary>{t('raw.headers', { count: Object.keys(headers ?? {}).length })}</summary>
        <pre className="raw-exchange__text">{headerLines(headers)}</pre>
      </details>
      <pre className="raw-exchange__text">{children}</pre>
    </div>
  );
}

function Exchange({ exchange, index }: { exchange: RawExchange; index: number }) {
  const { t, i18n } = useTranslation();
  const answer = exchange.error ? t('raw.noAnswer', { error: exchange.error }) : httpStatus(exchange.status);
  return (
    <details className="raw-exchange" open={index === 0}>
      <summary>
        <code>{`${exchange.method} ${exchange.url}`}</code>{' '}
        <span className="muted">{` · ${answer} · ${new Date(exchange.startedAt).toLocaleTimeString(i18n.language)}`}</span>
      </summary>
      <h4 className="subhead">{t('raw.request')}</h4>
      <Message label={t('raw.requestNumber', { number: index + 1 })} headers={exchange.requestHeaders}>
        {readable(exchange.requestBody)}
      </Message>
      <h4 className="subhead">
        {t('raw.response')} <CopyButton text={exchange.responseBody} label={t('raw.copyResponse')} />
      </h4>
      <Message label={t('raw.responseNumber', { number: index + 1 })} headers={exchange.responseHeaders}>
        {exchange.responseBody}
        {exchange.truncated ? '\n' : null}
        {exchange.truncated ? t('raw.cut') : null}
      </Message>
    </details>
  );
}

/** The requests of a chat's last runs and what the server sent back, byte for byte but for masked keys. */
export function RawExchangeDialog({ chatId, onClose }: { chatId: string; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const runs = useRawExchanges(chatId);
  const [runIndex, setRunIndex] = useState(0);
  const list = runs.data?.runs ?? [];
  const run = list[Math.min(runIndex, list.length - 1)];
  return (
    <Modal title={t('raw.title')} wide onDismiss={onClose} description={t('raw.description')}>
      <ErrorLine message={runs.error ? errorMessage(runs.error, t('raw.readFailed')) : null} />
      {runs.isPending ? <p className="muted">{t('raw.reading')}</p> : null}
      {runs.data && list.length === 0 ? <p className="muted">{t('raw.empty')}</p> : null}
      {list.length > 1 ? (
        <label className="field">
          <span className="field__label">{t('raw.run')}</span>
          <select className="input" value={runIndex} onChange={(event) => setRunIndex(Number(event.target.value))}>
            {list.map((entry, index) => (
              <option key={entry.runId} value={index}>
                {t('raw.runOption', {
                  run: index === 0 ? t('raw.lastRun') : t('raw.runsAgo', { count: index + 1 }),
                  time: new Date(entry.startedAt).toLocaleTimeString(i18n.language),
                  requests: t('raw.requests', { count: entry.exchanges.length }),
                })}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {run ? (
        <div className="raw-exchanges" role="list" aria-label={t('raw.requestsOfRun')}>
          {run.exchanges.map((exchange, index) => (
            <div role="listitem" key={`${run.runId}-${index}`}>
              <Exchange exchange={exchange} index={index} />
            </div>
          ))}
        </div>
      ) : null}
    </Modal>
  );
}
