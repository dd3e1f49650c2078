import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { i18n } from '../../i18n/index.js';
import type { ToolEntry, ToolView } from '../../../shared/schemas/tool.js';
import { ArgumentForm } from '../../components/ArgumentForm.js';
import { Modal } from '../../components/Modal.js';
import { useApi } from '../../api/context.js';
import { useRunTool } from '../../queries/chats.js';
import { useBundleName } from '../../queries/tools.js';
import { useChatUi } from '../../state/chat-ui.js';
import { ErrorLine, errorMessage, issuesOf } from '../../components/ErrorLine.js';
import { promptArgSchema } from '../../../shared/mcp/mcp-prompts.js';
import { offeringKey, offeringTitle, promptAttachment, resourceAttachment, usePaletteOfferings, type Offering } from './offerings.js';
import { VersionBadge } from '../../components/VersionBadge.js';

type Issues = { path: string; message: string }[];

/** Enabled tools ranked by the store's search; a disabled or broken tool named exactly is shown with why. */
function usePaletteResults(query: string) {
  const api = useApi();
  return useQuery({
    queryKey: ['palette', query],
    queryFn: async () => {
      const [enabled, everything] = await Promise.all([
        api.tools.search({ q: query, pageSize: 30 }),
        query.trim() ? api.tools.search({ q: query, includeDisabled: true, pageSize: 10 }) : Promise.resolve({ tools: [] as ToolEntry[] }),
      ]);
      const usable = enabled.tools.filter((tool): tool is ToolView => tool.status === 'valid' && tool.available);
      const exact = everything.tools.filter((tool) => tool.slug === query.trim() && !usable.some((entry) => entry.toolID === tool.toolID));
      return { usable, explained: exact };
    },
    placeholderData: (previous) => previous,
  });
}

/** The core's own sentence (the one a run would be refused with), so the palette never words it differently. */
function whyNot(tool: ToolEntry): string {
  if (tool.status === 'invalid') return tool.unavailableReason;
  return tool.blockedReason ?? tool.unavailableReason ?? i18n.t('palette.cannotRun');
}

/**
 * The "+" palette: find any tool as you type, choose it with the arrow keys
 * and Enter, fill in its form and run it into the chat.
 */
export function ToolPalette({ chatId }: { chatId: string }) {
  const { t } = useTranslation();
  const initialQuery = useChatUi((state) => state.paletteQuery);
  const close = useChatUi((state) => state.closePalette);
  const [query, setQuery] = useState(initialQuery);
  const deferred = useDeferredValue(query);
  const results = usePaletteResults(deferred);
  const offerings = usePaletteOfferings(deferred);
  const [activeIndex, setActive] = useState(0);
  const [chosen, setChosen] = useState<ToolView | null>(null);
  const [chosenOffering, setChosenOffering] = useState<Offering | null>(null);
  const search = useRef<HTMLInputElement>(null);
  const listId = useId();
  const offeringsId = useId();
  const usable = results.data?.usable ?? [];
  // One run of arrow keys over both lists: tools first, then prompts and resources.
  const count = usable.length + offerings.length;
  // The lists change as results arrive: the highlight stays on a row that exists.
  const active = Math.max(0, Math.min(activeIndex, count - 1));
  const activeOffering = active >= usable.length ? offerings[active - usable.length] : undefined;
  const activeId = usable[active] ? `${listId}-${usable[active].toolID}` : activeOffering ? `${offeringsId}-${offeringKey(activeOffering)}` : undefined;
  const choose = (index: number) => {
    if (usable[index]) setChosen(usable[index]);
    else if (offerings[index - usable.length]) setChosenOffering(offerings[index - usable.length]!);
  };
  const nameOfBundle = useBundleName();
  const bundleName = (bundleID: string) => nameOfBundle(bundleID) ?? '';

  /** One key on the list as it is now: the index it leaves highlighted. */
  const applyKey = (key: string, at: number): number => {
    if (key === 'ArrowDown') return Math.min(count - 1, at + 1);
    if (key === 'ArrowUp') return Math.max(0, at - 1);
    if (key === 'Home') return 0;
    if (key === 'End') return Math.max(0, count - 1);
    if (key === 'Enter' && at < count) choose(at);
    return at;
  };
  // Keys pressed before the tools for what was typed have arrived wait for them: they would
  // otherwise move over, and Enter would pick, rows of the search before.
  const stale = deferred !== query || results.isPlaceholderData || results.isPending;
  const [waitingKeys, setWaitingKeys] = useState<string[]>([]);
  if (!stale && waitingKeys.length > 0) {
    // Replayed once, during the render that first has the list the keys were meant for.
    setWaitingKeys([]);
    setActive(waitingKeys.reduce((at, key) => applyKey(key, at), active));
  }
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (!['ArrowDown', 'ArrowUp', 'Home', 'End', 'Enter'].includes(event.key)) return;
    event.preventDefault();
    if (stale || waitingKeys.length > 0) setWaitingKeys((keys) => [...keys, event.key]);
    else setActive(applyKey(event.key, active));
  };

  return (
    <Modal title={t('palette.title')} wide onDismiss={chosen ? () => setChosen(null) : chosenOffering ? () => setChosenOffering(null) : close} initialFocus={search}>
      {chosen ? (
        <ToolRunForm chatId={chatId} tool={chosen} bundleName={bundleName(chosen.bundleID)} onBack={() => setChosen(null)} onDone={close} />
      ) : chosenOffering ? (
        <AttachOffering chatId={chatId} offering={chosenOffering} onBack={() => setChosenOffering(null)} onDone={close} />
      ) : (
        <div className="palette">
          <label className="visually-hidden" htmlFor={`${listId}-search`}>
            {t('palette.search')}
          </label>
          <input
            ref={search}
            id={`${listId}-search`}
            className="input palette__search"
            placeholder={t('palette.searchPlaceholder')}
            role="combobox"
            aria-expanded="true"
            aria-controls={listId}
            aria-activedescendant={activeId}
            autoComplete="off"
            value={query}
            onChange={(event) => {
              setQuery(event.target.value);
              setActive(0);
            }}
            onKeyDown={onKeyDown}
          />
          <ul id={listId} className="palette__list" role="listbox" aria-label={t('palette.tools')}>
            {usable.map((tool, index) => (
              <li
                key={tool.toolID}
                id={`${listId}-${tool.toolID}`}
                role="option"
                aria-selected={index === active}
                className={`palette__option${index === active ? ' palette__option--active' : ''}`}
                onMouseEnter={() => setActive(index)}
                onClick={() => setChosen(tool)}
              >
                <span className="palette__name">
                  <bdi>{tool.displayName}</bdi>
                </span>
                <code className="palette__slug">{tool.slug}</code>
                <VersionBadge tool={tool} />
                <span className="palette__bundle muted">{bundleName(tool.bundleID)}</span>
                {tool.description ? <span className="palette__description muted" dir="auto">{tool.description}</span> : null}
              </li>
            ))}
          </ul>
          {usable.length === 0 && !results.isPending ? <p className="muted palette__empty">{t('palette.noMatch', { query: deferred })}</p> : null}
          {offerings.length ? (
            <>
              <h3 className="palette__section" id={`${offeringsId}-title`}>
                {t('palette.offerings')}
              </h3>
              <ul className="palette__list" role="listbox" aria-labelledby={`${offeringsId}-title`}>
                {offerings.map((offering, index) => {
                  const at = usable.length + index;
                  return (
                    <li
                      key={offeringKey(offering)}
                      id={`${offeringsId}-${offeringKey(offering)}`}
                      role="option"
                      aria-selected={at === active}
                      className={`palette__option${at === active ? ' palette__option--active' : ''}`}
                      onMouseEnter={() => setActive(at)}
                      onClick={() => setChosenOffering(offering)}
                    >
                      <span className="palette__name">
                        <bdi>{offeringTitle(offering)}</bdi>
                      </span>
                      <code className="palette__slug">{offering.kind === 'resource' ? offering.resource.uri : offering.prompt.name}</code>
                      <span className="palette__bundle muted">
                        {offering.kind === 'resource' ? t('palette.resourceOf', { server: offering.server }) : t('palette.promptOf', { server: offering.server })}
                      </span>
                      {(offering.kind === 'resource' ? offering.resource.description : offering.prompt.description) ? (
                        <span className="palette__description muted" dir="auto">{offering.kind === 'resource' ? offering.resource.description : offering.prompt.description}</span>
                      ) : null}
                    </li>
                  );
                })}
              </ul>
            </>
          ) : null}
          {results.data?.explained.map((tool) => (
            <p key={tool.toolID} className="callout callout--warn">
              <strong>{tool.displayName ?? tool.slug}</strong> — {whyNot(tool)}
            </p>
          ))}
          <p className="muted modal__keys">
            <Trans i18nKey="palette.keys" components={[<kbd className="kbd" />, <kbd className="kbd" />, <kbd className="kbd" />, <kbd className="kbd" />]} />
          </p>
        </div>
      )}
    </Modal>
  );
}

function ToolRunForm({ chatId, tool, bundleName, onBack, onDone }: { chatId: string; tool: ToolView; bundleName: string; onBack: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const api = useApi();
  const run = useRunTool();
  const [share, setShare] = useState(true);
  const [issues, setIssues] = useState<Issues>([]);
  const [failure, setFailure] = useState<string | null>(null);
  const checkTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const address = { bundleID: tool.bundleID, toolSlug: tool.slug, version: tool.version };

  const checkAsYouType = (args: Record<string, unknown>) => {
    if (checkTimer.current) clearTimeout(checkTimer.current);
    checkTimer.current = setTimeout(() => {
      api.tools.checkArgs({ ...address, args }).then((result) => setIssues(result.issues), () => undefined);
    }, 250);
  };
  useEffect(() => () => void (checkTimer.current && clearTimeout(checkTimer.current)), []);
  // Chosen with Enter: typing goes on in the first field (or Run, for a tool without arguments).
  const formArea = useRef<HTMLDivElement>(null);
  useEffect(() => {
    formArea.current?.querySelector<HTMLElement>('.arg-form input, .arg-form select, .arg-form textarea, .arg-form button[type="submit"]')?.focus();
  }, []);

  return (
    <div className="palette__form" ref={formArea}>
      <p>
        <button type="button" className="button button--ghost button--small" onClick={onBack}>
          {t('palette.backTools')}
        </button>
      </p>
      <h3 className="palette__form-title">
        {tool.displayName} <VersionBadge tool={tool} /> <span className="muted">· {bundleName}</span>
      </h3>
      {tool.description ? <p className="muted" dir="auto">{tool.description}</p> : null}
      <ArgumentForm
        name={tool.displayName}
        schema={tool.argSchema}
        busy={run.isPending}
        issues={issues}
        onArgsChange={checkAsYouType}
        onSubmit={(args) => {
          setFailure(null);
          run.mutate(
            { chatId, bundleID: tool.bundleID, slug: tool.slug, version: tool.version, args, shareWithModel: share },
            {
              onSuccess: onDone,
              onError: (error) => {
                setIssues(issuesOf(error));
                setFailure(errorMessage(error, t('palette.didNotStart')));
              },
            },
          );
        }}
        actions={
          <label className="checkbox">
            <input type="checkbox" checked={share} onChange={(event) => setShare(event.target.checked)} /> {t('palette.share')}
          </label>
        }
      />
      <ErrorLine message={failure} />
    </div>
  );
}

/**
 * A resource is read and attached at once; a prompt with arguments asks for
 * them first. Either waits in the message box until the message is sent.
 */
function AttachOffering({ chatId, offering, onBack, onDone }: { chatId: string; offering: Offering; onBack: () => void; onDone: () => void }) {
  const { t } = useTranslation();
  const api = useApi();
  const attach = useChatUi((state) => state.attach);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const needsForm = offering.kind === 'prompt' && offering.prompt.arguments.length > 0;
  const fetchAndAttach = async (args: Record<string, string>) => {
    setBusy(true);
    setFailure(null);
    try {
      const attachment =
        offering.kind === 'resource'
          ? resourceAttachment(offering.server, offering.resource, (await api.mcpServers.readResource({ name: offering.server, uri: offering.resource.uri })).contents)
          : promptAttachment(offering.server, offering.prompt, await api.mcpServers.getPrompt({ name: offering.server, prompt: offering.prompt.name, args }));
      attach(chatId, attachment);
      onDone();
    } catch (error) {
      setFailure(t('palette.attachFailed', { title: offeringTitle(offering), message: error instanceof Error ? error.message : errorMessage(error) }));
      setBusy(false);
    }
  };
  const started = useRef(false);
  useEffect(() => {
    // Nothing to ask: fetched as soon as it is chosen (once, even under React's double effects).
    if (needsForm || started.current) return;
    started.current = true;
    void fetchAndAttach({});
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <div className="palette__form">
      <p>
        <button type="button" className="button button--ghost button--small" onClick={onBack}>
          {t('palette.backAll')}
        </button>
      </p>
      <h3 className="palette__form-title">
        {offeringTitle(offering)}{' '}
        <span className="muted">{offering.kind === 'resource' ? t('palette.resourceOfServer', { server: offering.server }) : t('palette.promptOfServer', { server: offering.server })}</span>
      </h3>
      {offering.kind === 'prompt' && offering.prompt.description ? <p className="muted" dir="auto">{offering.prompt.description}</p> : null}
      {needsForm && offering.kind === 'prompt' ? (
        <ArgumentForm
          name={t('offerings.promptArguments', { name: offering.prompt.name })}
          schema={promptArgSchema(offering.prompt)}
          submitLabel={t('palette.attach')}
          busyLabel={t('palette.attaching')}
          busy={busy}
          onSubmit={(args) => void fetchAndAttach(args as Record<string, string>)}
        />
      ) : busy ? (
        <p className="muted" role="status">
          {offering.kind === 'resource' ? t('palette.readingResource') : t('palette.fillingPrompt')}
        </p>
      ) : null}
      <ErrorLine message={failure} />
    </div>
  );
}
