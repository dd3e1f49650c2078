import { useTranslation } from 'react-i18next';
import { useRef, useState, type ReactNode } from 'react';
import { toCurl } from '../curl/curl.js';
import { ToolbeltError } from '../../../shared/errors.js';
import type { InvokeResult, RecipeResume } from '../../../shared/schemas/invocation.js';
import type { HttpImpl } from '../../../shared/schemas/http-impl.js';
import { ArgumentForm } from '../../components/ArgumentForm.js';
import { CopyButton } from '../../components/CopyButton.js';
import { ErrorLine, issuesOf } from '../../components/ErrorLine.js';
import { usePatchSettings, useSettings } from '../../queries/tools.js';
import { useExampleChange, useTesterBook, type BookAddress } from '../../queries/tester.js';
import { useTesterHistory } from './history.js';
import { useCoreTransport } from '../../api/context.js';
import type { ToolProgress } from '../../../shared/schemas/chat.js';
import { v7 as uuidv7 } from 'uuid';
import { ResponseView } from './ResponseView.js';
import { RunProgress } from './RunProgress.js';
import './run-progress.css';
import { Examples, RunHistory, type PastRun } from './TesterRuns.js';

export interface TesterTarget {
  /** Identifies the tool (or draft) in this session's history. */
  key: string;
  name: string;
  argSchema: Record<string, unknown>;
  /** HTTP tools: what Copy as cURL renders. */
  impl?: HttpImpl;
  unavailableReason?: string;
  /**
   * Why it cannot run for now (a draft with problems): Run is off and this is
   * said, while a run already under way goes on and shows its result.
   */
  waits?: string;
  /** A saved tool: its runs and examples are kept with it (a draft's runs last the session). */
  book?: BookAddress;
  /** Arguments the form starts with (a call opened from a chat). */
  initialArgs?: Record<string, unknown>;
  /**
   * `resume`: a recipe run again from one of its steps, with the results of
   * the steps before it; `progressId`: the run reports how far it has got as
   * `tools.progress` events with it.
   */
  run: (args: Record<string, unknown>, signal: AbortSignal, options: { resume?: RecipeResume; progressId: string }) => Promise<InvokeResult>;
  /** Told of every run's result (a recipe's builder shows the values its steps had). */
  onResult?: (result: InvokeResult) => void;
  /** An MCP tool with an app: the app, shown with the run on screen (its arguments and result). */
  app?: (args: Record<string, unknown>, result: InvokeResult) => ReactNode;
}

/**
 * The "Tester" region, a workbench: arguments and examples on one side, the
 * response on the other (above the arguments once there is one, on narrow
 * windows), then past runs to look at or run again. Run with Ctrl/Cmd+Enter.
 * Mounted per tool (keyed), so switching tools starts clean.
 */
export function Tester({ target }: { target: TesterTarget }) {
  const { t } = useTranslation();
  const settings = useSettings();
  const patchSettings = usePatchSettings();
  const session = useTesterHistory();
  const book = useTesterBook(target.book ?? null);
  const examples = useExampleChange(target.book ?? null);
  const toolKey = target.key;
  const [shown, setShown] = useState<{ result: InvokeResult; runId: string | null; args: Record<string, unknown> } | null>(null);
  const [issues, setIssues] = useState<{ path: string; message: string }[]>([]);
  const [failure, setFailure] = useState<string | null>(null);
  // The form is rebuilt from these arguments when a past run or an example is picked.
  const [seed, setSeed] = useState<{ args: Record<string, unknown> | undefined; revision: number }>({ args: target.initialArgs, revision: 0 });
  const [formArgs, setFormArgs] = useState<Record<string, unknown>>(target.initialArgs ?? {});
  const running = useRef<AbortController | null>(null);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<ToolProgress | null>(null);
  const transport = useCoreTransport();
  const region = useRef<HTMLElement>(null);

  const run = async (args: Record<string, unknown>, resume?: RecipeResume) => {
    if (target.waits) return;
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setBusy(true);
    setFailure(null);
    setIssues([]);
    setFormArgs(args);
    try {
      const progressId = uuidv7();
      // How far it has got (a recipe's steps, an MCP tool's progress), shown while it runs.
      const stopWatching = transport.subscribe((event) => {
        if (event.type === 'tools.progress' && event.progressId === progressId && running.current === controller) setProgress({ progress: event.progress, ...(event.total !== undefined ? { total: event.total } : {}), ...(event.message ? { message: event.message } : {}) });
      });
      let outcome: InvokeResult;
      try {
        outcome = await target.run(args, controller.signal, { ...(resume ? { resume } : {}), progressId });
      } finally {
        stopWatching();
        setProgress(null);
      }
      target.onResult?.(outcome);
      if (target.book) {
        setShown({ result: outcome, runId: null, args });
        await book.refetch();
      } else {
        setShown({ result: outcome, runId: String(session.add({ toolKey, args, result: outcome }).id), args });
      }
      if (outcome.notKept) setFailure(outcome.notKept);
    } catch (error) {
      setShown(null);
      if (error instanceof ToolbeltError && error.code === 'invalid_args') {
        setIssues(issuesOf(error));
        setFailure(error.message);
      } else {
        setFailure(error instanceof Error ? error.message : String(error));
      }
    } finally {
      if (running.current === controller) running.current = null;
      setBusy(false);
    }
  };

  const fillForm = (args: Record<string, unknown>) => {
    setSeed((current) => ({ args, revision: current.revision + 1 }));
    setFormArgs(args);
  };

  const allowHost = (host: string) => {
    const current = settings.data?.allowedHosts ?? [];
    patchSettings.mutate({ allowedHosts: [...new Set([...current, host])] }, { onSuccess: () => void run(formArgs) });
  };

  const onKeyDown = (event: React.KeyboardEvent) => {
    if ((event.ctrlKey || event.metaKey) && event.key === 'Enter') {
      event.preventDefault();
      region.current?.querySelector<HTMLFormElement>('form.arg-form')?.requestSubmit();
    }
  };

  const runs: PastRun[] = target.book
    ? (book.data?.runs ?? [])
    : session.runs.filter((entry) => entry.toolKey === toolKey).map((entry) => ({ id: String(entry.id), at: entry.at.toISOString(), args: entry.args, result: entry.result }));
  // After a run of a saved tool, the newest kept run is the one on screen.
  const shownId = shown?.runId ?? (shown && target.book ? (runs[0]?.id ?? null) : null);
  const argNames = new Set(Object.keys((target.argSchema.properties as object | undefined) ?? {}));

  return (
    <section ref={region} className="tester" aria-labelledby="tester-title" onKeyDown={onKeyDown}>
      <h2 id="tester-title" className="pane__title">
        {t('tester.title')}
      </h2>
      {target.unavailableReason ? <p className="warning-text">{t('tester.cannotRun', { reason: target.unavailableReason })}</p> : null}
      {target.waits ? <p className="muted">{target.waits}</p> : null}
      <div className={`tester__grid${shown ? ' tester__grid--answered' : ''}`}>
        <div className="tester__input">
          <ArgumentForm
            key={`${toolKey}#${seed.revision}`}
            name={target.name}
            schema={target.argSchema}
            busy={busy}
            blocked={target.waits !== undefined}
            issues={issues}
            initialArgs={seed.args}
            onArgsChange={setFormArgs}
            onSubmit={(args) => void run(args)}
            actions={
              <>
                {busy ? (
                  <button type="button" className="button" onClick={() => running.current?.abort()}>
                    {t('common.cancel')}
                  </button>
                ) : null}
                {target.impl ? <CopyButton text={toCurl(target.impl, formArgs, argNames)} label={t('tester.copyCurl')} withText /> : null}
              </>
            }
          />
          {target.book ? (
            <Examples
              examples={book.data?.examples ?? []}
              failure={examples.error}
              onUse={(example) => fillForm(example.args)}
              onSave={(name) => examples.mutate({ kind: 'save', name, args: formArgs })}
              onDelete={(name) => examples.mutate({ kind: 'delete', name })}
            />
          ) : null}
        </div>
        <div className="tester__output">
          <ErrorLine message={failure} />
          {shown && target.app ? target.app(shown.args, shown.result) : null}
          {shown?.result.recipe?.failedStep && !busy ? (
            <button type="button" className="button button--small" onClick={() => void run(shown.args, { from: shown.result.recipe!.failedStep!, results: shown.result.recipe!.results })}>
              {t('tester.runFromStep', { step: shown.result.recipe.failedStep })}
            </button>
          ) : null}
          {shown && busy ? (
            <p className="muted tester__again" aria-live="polite">
              {progress ? <RunProgress progress={progress} /> : t('tester.running')}
            </p>
          ) : null}
          {shown ? (
            <ResponseView result={shown.result} onAllowHost={allowHost} />
          ) : (
            <p className="muted tester__empty" aria-live="polite">
              {busy ? (progress ? <RunProgress progress={progress} /> : t('tester.running')) : t('tester.empty')}
            </p>
          )}
          <RunHistory
            runs={runs}
            kept={target.book !== undefined}
            shownId={shownId}
            onShow={(past) => setShown({ result: past.result, runId: past.id, args: past.args })}
            onRunAgain={(past) => {
              fillForm(past.args);
              void run(past.args);
            }}
          />
        </div>
      </div>
    </section>
  );
}
