import { useTranslation } from 'react-i18next';
import { i18n } from '../../i18n/index.js';
import { AgentSteps } from '../../components/AgentSteps.js';
import { HookRuns } from '../../components/HookRuns.js';
import { useEffect, useState } from 'react';
import type { ToolCall } from '../../../shared/schemas/chat.js';
import { ToolResult } from '../../components/ContentBlocks.js';
import { JsonTree } from '../../components/JsonTree.js';
import { usePatchSettings, useSettings } from '../../queries/tools.js';
import { useToolsUi } from '../../state/tools-ui.js';
import { useUiStore } from '../../state/ui.js';
import { ToolCallApp } from '../apps/ToolCallApp.js';

const TONE: Partial<Record<ToolCall['status'], string>> = { succeeded: 'ok', failed: 'bad', denied: 'bad', cancelled: 'quiet', running: 'pending' };

function useElapsed(since: string | undefined, running: boolean): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [running]);
  return running && since ? Math.max(0, now - Date.parse(since)) : null;
}

function formatMs(ms: number): string {
  return ms < 1000 ? i18n.t('common.milliseconds', { value: Math.round(ms) }) : i18n.t('toolCall.seconds', { value: (ms / 1000).toLocaleString(i18n.language, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) });
}

/**
 * The argument that says what a call is about ("Paris" for a weather call):
 * the first short text argument, else the first short number.
 */
export function keyArgument(args: Record<string, unknown>): string | null {
  const values = Object.values(args);
  const text = values.find((value): value is string => typeof value === 'string' && value.trim() !== '');
  const shown = text ?? values.find((value): value is number => typeof value === 'number');
  if (shown === undefined) return null;
  const line = String(shown).replace(/\s+/g, ' ').trim();
  return line.length > 40 ? `${line.slice(0, 39)}…` : line;
}

/** The name tool search is offered under (main/tools/exposure.ts). */
const TOOL_SEARCH_NAME = 'tool_search';

interface FoundTool {
  name: string;
  description?: string;
  bundle?: string;
}

function foundTools(call: ToolCall): FoundTool[] | null {
  if (call.name !== TOOL_SEARCH_NAME || !call.result?.ok) return null;
  const matches = (call.result.value as { matches?: unknown } | null)?.matches;
  return Array.isArray(matches) ? matches.filter((match): match is FoundTool => typeof (match as FoundTool | null)?.name === 'string') : null;
}

/** A search the model made for tools: what it asked for and what it found (and loaded), without opening the card. */
function SearchedAndFound({ call }: { call: ToolCall }) {
  const { t } = useTranslation();
  const found = foundTools(call);
  if (call.name !== TOOL_SEARCH_NAME) return null;
  // Tools of one bundle (an imported API's) say it once, not on every line: a long name repeated five times hid what they do.
  const bundles = new Set(found?.map((match) => match.bundle));
  const oneBundle = found && found.length > 1 && bundles.size === 1 ? [...bundles][0] : undefined;
  return (
    <dl className="tool-card__qa">
      <dt>{t('toolCall.searchedFor')}</dt>
      <dd>{typeof call.args.query === 'string' ? call.args.query : ''}</dd>
      {found ? (
        <>
          <dt>{t('toolCall.foundAndLoaded')}</dt>
          <dd>
            {oneBundle ? (
              <p className="muted tool-card__found-from">
                {t('toolCall.allFrom')} <bdi>{oneBundle}</bdi>
              </p>
            ) : null}
            <ul className="tool-card__found">
              {found.map((match) => (
                <li key={match.name}>
                  <code>{match.name}</code>
                  {match.bundle && !oneBundle ? (
                    <span className="muted">
                      {' · '}
                      <bdi>{match.bundle}</bdi>
                    </span>
                  ) : null}
                  {match.description ? <span className="muted" dir="auto">{` — ${match.description.length > 120 ? `${match.description.slice(0, 119)}…` : match.description}`}</span> : null}
                </li>
              ))}
            </ul>
          </dd>
        </>
      ) : null}
    </dl>
  );
}

/** A question the model asked the person, and their answer, as the card shows them without opening it. */
function AskedAndAnswered({ call }: { call: ToolCall }) {
  const { t } = useTranslation();
  if (!call.question) return null;
  const answer = call.question.answer ?? (call.result?.ok ? (call.result.value as { answer?: unknown } | null)?.answer : undefined);
  return (
    <dl className="tool-card__qa">
      <dt>{t('toolCall.asked')}</dt>
      <dd>{call.question.text}</dd>
      {typeof answer === 'string' ? (
        <>
          <dt>{t('toolCall.youAnswered')}</dt>
          <dd>{answer}</dd>
        </>
      ) : null}
    </dl>
  );
}

/** One tool call: what was called with what, how it went, and its result or error. */
export function ToolCallCard({ call, byPerson = false, chatId, writing = false }: { call: ToolCall; byPerson?: boolean; chatId?: string; writing?: boolean }) {
  const { t } = useTranslation();
  const running = call.status === 'running';
  const elapsed = useElapsed(call.startedAt, running);
  const [open, setOpen] = useState(byPerson);
  const goTo = useUiStore((state) => state.goTo);
  const openInTester = useToolsUi((state) => state.openInTester);
  const result = call.result;
  const title = call.tool?.displayName ?? call.name;
  const about = call.question || call.name === TOOL_SEARCH_NAME ? null : keyArgument(call.args);
  return (
    <article className={`tool-card tool-card--${TONE[call.status] ?? 'pending'}`} aria-label={t('toolCall.card', { title })}>
      <header className="tool-card__head">
        <span className="tool-card__name">
          <strong>{title}</strong>
          {about ? <span>{` · ${about}`}</span> : null}
          <span className="muted tool-card__origin">
            {' '}
            <code>{call.name}</code>
            {call.tool ? ` · ${call.tool.bundleName}` : ''}
          </span>
          {byPerson ? <span className="badge badge--quiet">{t('toolCall.runByYou')}</span> : null}
          {call.contextDropped ? (
            <span className="badge badge--quiet" title={t('toolCall.droppedHint')}>
              {t('toolCall.dropped')}
            </span>
          ) : null}
        </span>
        <span className={`status-pill status-pill--${TONE[call.status] ?? 'pending'}`} role="status">
          {writing ? t('toolCall.writing') : t(`toolCall.status.${call.status}`)}
          {elapsed !== null ? ` ${formatMs(elapsed)}` : ''}
        </span>
      </header>
      {running && call.progress ? <ProgressLine progress={call.progress} /> : null}
      <AskedAndAnswered call={call} />
      <SearchedAndFound call={call} />
      <ToolCallApp call={call} {...(chatId ? { chatId } : {})} {...(writing ? { writing: true } : {})} />
      {result?.steps?.length ? <AgentSteps steps={result.steps} /> : null}
      {result?.hooks?.length ? <HookRuns runs={result.hooks} /> : null}
      <details className="tool-card__section" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary>
          {t('toolCall.argsAndResult')}
          {result ? (
            <span className="muted">
              {` · ${formatMs(result.durationMs)}`}
              {result.attempts > 1 ? t('toolCall.attempts', { count: result.attempts }) : ''}
            </span>
          ) : null}
        </summary>
        {/* Rendered only while open: a megabyte result costs nothing until someone looks. */}
        {open ? (
        <div className="tool-card__body">
          <h4 className="subhead">{t('toolCall.arguments')}</h4>
          <JsonTree value={call.args} />
          {call.note ? <p className="muted">{call.note}</p> : null}
          {result?.ok ? (
            <>
              <h4 className="subhead">{t('toolCall.result')}</h4>
              <ToolResult value={result.value} content={result.content} />
              {result.outputMismatch ? <p className="muted">{result.outputMismatch.message}</p> : null}
            </>
          ) : null}
        </div>
        ) : null}
      </details>
      {result?.ok && result.outputMismatch ? (
        // Taken, as its bundle says, though it is not what the tool says it answers: the person sees which parts to doubt.
        <p className="tool-card__warning">
          {t('toolCall.mismatchTaken', { count: result.outputMismatch.issues.length })}
        </p>
      ) : null}
      {result && !result.ok ? (
        <div className="tool-card__error" role="alert">
          <code>{result.error.code}</code> {result.error.message}
          {result.error.code === 'host_not_allowed' && result.error.host ? <AllowHostButton host={result.error.host} /> : null}
          {call.tool && result.error.code !== 'denied' && result.error.code !== 'cancelled' ? (
            <button
              type="button"
              className="button button--small button--ghost"
              onClick={() => {
                // The tester starts with the call's arguments, to see what went wrong and try again.
                openInTester({ bundleID: call.tool!.bundleID, slug: call.tool!.slug, version: call.tool!.version }, call.args);
                goTo('tools');
              }}
            >
              {t('toolCall.openInTester')}
            </button>
          ) : null}
        </div>
      ) : null}
    </article>
  );
}

/** "3 of 8 · Step 3 of 8 done" with a bar when the total is known. */
function ProgressLine({ progress }: { progress: NonNullable<ToolCall['progress']> }) {
  const { t } = useTranslation();
  const known = progress.total !== undefined && progress.total > 0;
  const label = known ? t('toolCall.progressOf', { done: progress.progress, total: progress.total }) : `${progress.progress}`;
  return (
    <div className="tool-card__progress">
      {known ? <progress max={progress.total} value={Math.min(progress.progress, progress.total!)} aria-label={t('toolCall.progress', { label })} /> : null}
      <span className="muted" aria-live="polite">
        {label}
        {progress.message ? ` · ${progress.message}` : ''}
      </span>
    </div>
  );
}

function AllowHostButton({ host }: { host: string }) {
  const { t } = useTranslation();
  const settings = useSettings();
  const patch = usePatchSettings();
  const allowed = settings.data?.allowedHosts.includes(host) ?? false;
  return (
    <button
      type="button"
      className="button button--small"
      disabled={!settings.data || allowed || patch.isPending}
      onClick={() => settings.data && patch.mutate({ allowedHosts: [...settings.data.allowedHosts, host] })}
    >
      {allowed ? t('toolCall.hostAllowed', { host }) : t('toolCall.allowHost', { host })}
    </button>
  );
}
