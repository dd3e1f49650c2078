import { useRef, useState } from 'react';
import { toCurl } from '../../../shared/curl.js';
import { ToolbeltError } from '../../../shared/errors.js';
import type { InvokeResult } from '../../../shared/schemas/invocation.js';
import type { HttpImpl } from '../../../shared/schemas/http-impl.js';
import { ArgumentForm } from '../../components/ArgumentForm.js';
import { usePatchSettings, useSettings } from '../../queries/tools.js';
import { useTesterHistory } from './history.js';
import { ResponseView } from './ResponseView.js';
import { ErrorLine } from '../../components/ErrorLine.js';

/**
 * The "Tester" region: arguments, Run (Ctrl/Cmd+Enter), Cancel, the response,
 * Copy as cURL, this session's runs. Mounted per tool (keyed), so switching
 * tools starts clean.
 */
export interface TesterTarget {
  /** Identifies the tool (or draft) in this session's history. */
  key: string;
  name: string;
  argSchema: Record<string, unknown>;
  /** HTTP tools: what Copy as cURL renders. */
  impl?: HttpImpl;
  unavailableReason?: string;
  run: (args: Record<string, unknown>, signal: AbortSignal) => Promise<InvokeResult>;
}

export function Tester({ target }: { target: TesterTarget }) {
  const settings = useSettings();
  const patchSettings = usePatchSettings();
  const history = useTesterHistory();
  const toolKey = target.key;
  const [result, setResult] = useState<InvokeResult | null>(null);
  const [issues, setIssues] = useState<{ path: string; message: string }[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const [lastArgs, setLastArgs] = useState<Record<string, unknown>>({});
  const [copied, setCopied] = useState(false);
  const running = useRef<AbortController | null>(null);
  const [busy, setBusy] = useState(false);
  const region = useRef<HTMLElement>(null);

  const run = async (args: Record<string, unknown>) => {
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setBusy(true);
    setFailure(null);
    setIssues([]);
    setLastArgs(args);
    try {
      const outcome = await target.run(args, controller.signal);
      setResult(outcome);
      history.add({ toolKey, args, result: outcome });
    } catch (error) {
      setResult(null);
      if (error instanceof ToolbeltError && error.code === 'invalid_args') {
        setIssues((error.details as { issues?: { path: string; message: string }[] })?.issues ?? []);
        setFailure(error.message);
      } else {
        setFailure(error instanceof Error ? error.message : String(error));
      }
    } finally {
      if (running.current === controller) running.current = null;
      setBusy(false);
    }
  };

  const allowHost = (host: string) => {
    const current = settings.data?.allowedHosts ?? [];
    patchSettings.mutate({ allowedHosts: [...new Set([...current, host])] }, { onSuccess: () => void run(lastArgs) });
  };

  const copyCurl = () => {
    if (!target.impl) return;
    const names = new Set(Object.keys((target.argSchema.properties as object | undefined) ?? {}));
    void navigator.clipboard?.writeText(toCurl(target.impl, lastArgs, names)).then(() => {
      setCopied(true);
      setTimeout(() => setCopied(false), 1_500);
    });
  };

  const onKeyDown = (event: React.KeyboardEvent) => {
    if ((event.ctrlKey || event.metaKey) && event.key === 'Enter') {
      event.preventDefault();
      region.current?.querySelector('form')?.requestSubmit();
    }
  };

  const runs = history.runs.filter((entry) => entry.toolKey === toolKey);

  return (
    <section ref={region} className="tester" aria-labelledby="tester-title" onKeyDown={onKeyDown}>
      <h2 id="tester-title" className="pane__title">
        Tester
      </h2>
      {target.unavailableReason ? <p className="warning-text">This tool cannot run: {target.unavailableReason}</p> : null}
      <ArgumentForm
        key={toolKey}
        name={target.name}
        schema={target.argSchema}
        busy={busy}
        issues={issues}
        onSubmit={(args) => void run(args)}
        actions={
          <>
            {busy ? (
              <button type="button" className="button" onClick={() => running.current?.abort()}>
                Cancel
              </button>
            ) : null}
            {target.impl ? (
              <button type="button" className="button button--ghost" onClick={copyCurl}>
                {copied ? 'Copied' : 'Copy as cURL'}
              </button>
            ) : null}
          </>
        }
      />
      <ErrorLine message={failure} />
      {result ? <ResponseView result={result} onAllowHost={allowHost} /> : null}
      {runs.length > 1 ? (
        <details className="history">
          <summary>This session’s runs ({runs.length})</summary>
          <ul className="history__list">
            {runs.map((entry) => (
              <li key={entry.id}>
                <button type="button" className="button button--ghost" onClick={() => setResult(entry.result)}>
                  {entry.at.toLocaleTimeString()} · {entry.result.ok ? 'ok' : entry.result.error.code} · {Math.round(entry.result.durationMs)} ms
                </button>
                <button type="button" className="button button--ghost" onClick={() => void run(entry.args)}>
                  Run again
                </button>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </section>
  );
}
