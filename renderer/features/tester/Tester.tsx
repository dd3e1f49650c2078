import { useRef, useState } from 'react';
import { toCurl } from '../../../shared/curl.js';
import { ToolbeltError } from '../../../shared/errors.js';
import type { InvokeResult } from '../../../shared/schemas/invocation.js';
import type { ToolView } from '../../../shared/schemas/tool.js';
import { useCoreTransport } from '../../api/context.js';
import { ArgumentForm } from '../../components/ArgumentForm.js';
import { usePatchSettings, useSettings } from '../../queries/tools.js';
import { useTesterHistory } from './history.js';
import { ResponseView } from './ResponseView.js';

/**
 * The "Tester" region: arguments, Run (Ctrl/Cmd+Enter), Cancel, the response,
 * Copy as cURL, this session's runs. Mounted per tool (keyed), so switching
 * tools starts clean.
 */
export function Tester({ tool }: { tool: ToolView }) {
  const transport = useCoreTransport();
  const settings = useSettings();
  const patchSettings = usePatchSettings();
  const history = useTesterHistory();
  const toolKey = `${tool.bundleID}/${tool.slug}@${tool.version}`;
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
      const outcome = (await transport.invoke(
        'tools.invoke',
        { bundleID: tool.bundleID, toolSlug: tool.slug, version: tool.version, args, trace: true },
        { signal: controller.signal },
      )) as InvokeResult;
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
    if (tool.type !== 'http') return;
    const names = new Set(Object.keys((tool.argSchema.properties as object | undefined) ?? {}));
    void navigator.clipboard?.writeText(toCurl(tool.impl, lastArgs, names)).then(() => {
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
      {!tool.available ? <p className="warning-text">This tool cannot run: {tool.unavailableReason}</p> : null}
      <ArgumentForm
        key={toolKey}
        name={tool.displayName}
        schema={tool.argSchema}
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
            {tool.type === 'http' ? (
              <button type="button" className="button button--ghost" onClick={copyCurl}>
                {copied ? 'Copied' : 'Copy as cURL'}
              </button>
            ) : null}
          </>
        }
      />
      {failure ? (
        <p className="field__error" role="alert">
          {failure}
        </p>
      ) : null}
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
