import { useState } from 'react';
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

function headerLines(headers: Record<string, string> | undefined): string {
  return Object.entries(headers ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
}

function Exchange({ exchange, index }: { exchange: RawExchange; index: number }) {
  const answer = exchange.error ? `No answer: ${exchange.error}` : `HTTP ${exchange.status ?? '?'}`;
  return (
    <details className="raw-exchange" open={index === 0}>
      <summary>
        <code>
          {exchange.method} {exchange.url}
        </code>{' '}
        <span className="muted">
          · {answer} · {new Date(exchange.startedAt).toLocaleTimeString()}
        </span>
      </summary>
      <h4 className="subhead">Request</h4>
      <pre className="raw-exchange__text" aria-label={`Request ${index + 1}`}>
        {headerLines(exchange.requestHeaders)}
        {'\n\n'}
        {readable(exchange.requestBody)}
      </pre>
      <h4 className="subhead">
        Response, as it streamed <CopyButton text={exchange.responseBody} label="Copy the response" />
      </h4>
      <pre className="raw-exchange__text" aria-label={`Response ${index + 1}`}>
        {headerLines(exchange.responseHeaders)}
        {'\n\n'}
        {exchange.responseBody}
        {exchange.truncated ? '\n… (cut here: the rest was not kept)' : ''}
      </pre>
    </details>
  );
}

/** The requests of a chat's last runs and what the server sent back, byte for byte but for masked keys. */
export function RawExchangeDialog({ chatId, onClose }: { chatId: string; onClose: () => void }) {
  const runs = useRawExchanges(chatId);
  const [runIndex, setRunIndex] = useState(0);
  const list = runs.data?.runs ?? [];
  const run = list[Math.min(runIndex, list.length - 1)];
  return (
    <Modal title="Raw exchange" wide onDismiss={onClose} description="What the model server was sent and answered in this chat’s last runs (a long run’s last 16 requests), keys masked. Kept in memory until Toolbelt closes.">
      <ErrorLine message={runs.error ? errorMessage(runs.error, 'Could not read the exchange.') : null} />
      {runs.isPending ? <p className="muted">Reading…</p> : null}
      {runs.data && list.length === 0 ? <p className="muted">Nothing yet: send a message, and each request of its run shows here.</p> : null}
      {list.length > 1 ? (
        <label className="field">
          <span className="field__label">Run</span>
          <select className="input" value={runIndex} onChange={(event) => setRunIndex(Number(event.target.value))}>
            {list.map((entry, index) => (
              <option key={entry.runId} value={index}>
                {index === 0 ? 'Last run' : `${index + 1} runs ago`} · {new Date(entry.startedAt).toLocaleTimeString()} · {entry.exchanges.length} {entry.exchanges.length === 1 ? 'request' : 'requests'}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {run ? (
        <div className="raw-exchanges" role="list" aria-label="Requests of the run">
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
