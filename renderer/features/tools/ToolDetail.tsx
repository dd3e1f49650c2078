import { Trans, useTranslation } from 'react-i18next';
import { AGENT_MAX_TURNS_DEFAULT } from '../../../shared/schemas/agent.js';
import { i18n } from '../../i18n/index.js';
import { useEffect, useRef, useState } from 'react';
import type { ToolView } from '../../../shared/schemas/tool.js';
import type { HttpImpl } from '../../../shared/schemas/http-impl.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ToolsIcon } from '../../components/icons.js';
import { useQueryClient } from '@tanstack/react-query';
import { toolKeys, useBundleHttp, useEffectiveImpl, useTool } from '../../queries/tools.js';
import { effectiveHttp } from '../../../shared/tools/http-inherit.js';
import { useToolsUi } from '../../state/tools-ui.js';
import type { InvokeResult } from '../../../shared/schemas/invocation.js';
import { useCoreTransport } from '../../api/context.js';
import { Tester } from '../tester/Tester.js';
import { ToolEditor } from './editor/ToolEditor.js';
import { McpOfferings } from './McpOfferings.js';
import { SignInStrip } from './SignInStrip.js';
import { CallFigures } from './CallFigures.js';
import { useMcpServers } from '../../queries/mcp.js';
import { VersionBadge } from '../../components/VersionBadge.js';
import { McpAppView } from '../apps/McpAppView.js';
import { DeleteToolButton, ToolVersions } from './ToolVersions.js';

/** How a connection signs in, in a person's words. */
function authLabel(auth: NonNullable<HttpImpl['auth']>): string {
  switch (auth.kind) {
    case 'apiKey':
      return i18n.t('toolDetail.auth.apiKey', { location: auth.location, name: auth.name });
    case 'bearer':
      return i18n.t('toolDetail.auth.bearer');
    case 'basic':
      return i18n.t('toolDetail.auth.basic');
    case 'oauth2':
      return auth.flow === 'authorizationCode' ? i18n.t('toolDetail.auth.oauthBrowser') : i18n.t('toolDetail.auth.oauthClient');
    case 'hmac':
      return i18n.t('toolDetail.auth.hmac');
    case 'none':
      return i18n.t('toolDetail.auth.none');
  }
}

/** Where an HTTP tool sends its request, and what it takes from its bundle (base URL, sign-in, headers, timeout). */
function HttpTarget({ tool }: { tool: Extract<ToolView, { type: 'http' }> }) {
  const { t } = useTranslation();
  const bundleHttp = useBundleHttp(tool.bundleID);
  const effective = effectiveHttp(tool.impl, bundleHttp, []);
  if (!effective.ok) {
    return (
      <>
        <code>
          {tool.impl.method} {tool.impl.urlTemplate}
        </code>
        <span className="warning-text">{t('toolDetail.cannotRun', { problem: effective.problem })}</span>
      </>
    );
  }
  const { inherited, impl } = effective;
  const fromBundle = [
    inherited.baseUrl ? t('toolDetail.baseUrl') : null,
    inherited.auth && impl.auth ? t('toolDetail.signIn', { how: authLabel(impl.auth) }) : null,
    inherited.headers.length ? t('toolDetail.headers', { count: inherited.headers.length, names: inherited.headers.join(', ') }) : null,
    inherited.timeoutMs ? t('toolDetail.timeout', { ms: impl.timeoutMs }) : null,
  ].filter(Boolean);
  return (
    <>
      <code>
        {impl.method} {impl.urlTemplate}
      </code>
      {fromBundle.length ? <span className="muted">{t('toolDetail.fromBundle', { what: fromBundle.join(', ') })}</span> : null}
      {tool.impl.auth?.kind === 'none' && bundleHttp?.auth ? <span className="muted">{t('toolDetail.noCredentials')}</span> : null}
    </>
  );
}

function Definition({ tool }: { tool: ToolView }) {
  const { t, i18n: current } = useTranslation();
  const openEditor = useToolsUi((state) => state.openEditor);
  const newVersionRef = useRef<HTMLButtonElement>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusAfterEditor.pending === null) return;
    focusAfterEditor.pending = null;
    // A tool that cannot have a new version (a built-in) has no button: its title then.
    (newVersionRef.current ?? titleRef.current)?.focus();
  }, []);
  return (
    <section className="definition" aria-labelledby="definition-title">
      <div className="definition__head">
        <h2 id="definition-title" ref={titleRef} tabIndex={-1} className="definition__title" dir="auto">
          {tool.displayName}
        </h2>
        <code className="muted">
          {tool.slug}@{tool.version}
        </code>
        <VersionBadge tool={tool} />
        {tool.isBuiltIn ? <span className="badge">{t('toolDetail.builtIn')}</span> : null}
        {!tool.isEnabled ? <span className="badge badge--quiet">{t('toolDetail.off')}</span> : null}
        {!tool.readOnly ? (
          <button
            ref={newVersionRef}
            type="button"
            className="button definition__action"
            onClick={() => openEditor({ mode: 'version', address: { bundleID: tool.bundleID, slug: tool.slug, version: tool.version } })}
          >
            {t('toolDetail.newVersion')}
          </button>
        ) : null}
        <DeleteToolButton tool={tool} />
      </div>
      <ToolVersions tool={tool} />
      {tool.description ? <p className="definition__description" dir="auto">{tool.description}</p> : null}
      <dl className="facts facts--compact">
        <dt>{t('toolDetail.runs')}</dt>
        <dd>
          {tool.type === 'http' ? (
            <HttpTarget tool={tool} />
          ) : tool.type === 'mcp' ? (
            <Trans i18nKey="toolDetail.mcpTool" values={{ tool: tool.impl.tool, server: tool.impl.server }} components={[<code />, <code />]} />
          ) : tool.type === 'agent' ? (
            <Trans
              i18nKey="toolDetail.agent"
              count={tool.impl.tools.length}
              values={{ model: tool.impl.model, provider: tool.impl.providerId, count: tool.impl.tools.length, turns: tool.impl.maxTurns ?? AGENT_MAX_TURNS_DEFAULT }}
              components={[<code />]}
            />
          ) : tool.type === 'script' ? (
            t(tool.impl.language === 'typescript' ? 'toolDetail.scriptTs' : 'toolDetail.scriptJs')
          ) : tool.type === 'recipe' ? (
            t('toolDetail.recipe', { count: tool.impl.steps.length })
          ) : (
            <Trans i18nKey="toolDetail.local" values={{ func: tool.impl.func }} components={[<code />]} />
          )}
        </dd>
        {tool.tags.length ? (
          <>
            <dt>{t('toolDetail.tags')}</dt>
            <dd>{tool.tags.join(', ')}</dd>
          </>
        ) : null}
        <dt>{t('toolDetail.asksFirst')}</dt>
        <dd>{tool.requiresApproval ? t('toolDetail.asksYes') : t('toolDetail.asksNo')}</dd>
        <dt>{t('toolDetail.used')}</dt>
        <dd>
          {t('toolDetail.calls', { count: tool.usage.callCount })}
          {tool.usage.lastCalledAt ? t('toolDetail.lastCalled', { when: new Date(tool.usage.lastCalledAt).toLocaleString(current.language) }) : ''}
        </dd>
        <CallFigures tool={tool} />
      </dl>
      {tool.type === 'http' && tool.impl.auth?.kind === 'oauth2' && tool.impl.auth.flow === 'authorizationCode' ? (
        <SignInStrip target={{ bundleID: tool.bundleID, toolSlug: tool.slug, version: tool.version }} name={tool.displayName} />
      ) : null}
      <details className="schema">
        <summary>{t('toolDetail.schema')}</summary>
        <pre className="code-block">{JSON.stringify(tool.argSchema, null, 2)}</pre>
      </details>
    </section>
  );
}

/**
 * Where focus goes once the editor has closed (its buttons are gone with it): the shown tool's "New version…" when
 * it comes back, or "New tool" when no tool is shown. Taken once, by whichever of the two mounts first.
 */
const focusAfterEditor: { pending: 'new-version' | 'new-tool' | null } = { pending: null };

/** A new tool's editor closed without one: "New tool" takes the focus back. */
function FocusNewTool() {
  useEffect(() => {
    if (focusAfterEditor.pending === null) return;
    focusAfterEditor.pending = null;
    document.querySelector<HTMLElement>('[data-new-tool]')?.focus();
  }, []);
  return null;
}

/** The selected tool: its definition and the live tester beside it. */
export function ToolDetail() {
  const { t } = useTranslation();
  const selected = useToolsUi((state) => state.selected);
  const editor = useToolsUi((state) => state.editor);
  const openEditor = useToolsUi((state) => state.openEditor);
  const selectTool = useToolsUi((state) => state.selectTool);
  const bundleID = useToolsUi((state) => state.bundleID);
  const mcpServers = useMcpServers();
  const tool = useTool(selected);

  if (editor) {
    const base = editor.mode === 'version' && tool.data?.status === 'valid' ? tool.data : null;
    if (editor.mode === 'version' && !base) return <div className="pane pane--detail muted">{t('toolDetail.loading')}</div>;
    return (
      <div className="pane pane--detail">
        <ToolEditor
          key={editor.mode === 'new' ? `new-${editor.bundleID}-${typeof editor.draft?.slug === 'string' ? editor.draft.slug : ''}` : `${editor.address.slug}@${editor.address.version}`}
          bundleID={editor.mode === 'new' ? editor.bundleID : editor.address.bundleID}
          base={base}
          {...(editor.mode === 'new' && editor.draft ? { startDraft: editor.draft } : {})}
          onClose={() => {
            focusAfterEditor.pending = selected ? 'new-version' : 'new-tool';
            openEditor(null);
          }}
          onSaved={(address) => {
            focusAfterEditor.pending = 'new-version';
            selectTool(address);
          }}
        />
      </div>
    );
  }

  const mcpServer = !selected && bundleID ? mcpServers.data?.find((server) => server.bundleID === bundleID) : undefined;
  if (mcpServer) {
    return (
      <div className="pane pane--detail">
        <McpOfferings server={mcpServer} />
      </div>
    );
  }
  if (!selected) {
    return (
      <div className="pane pane--detail">
        <FocusNewTool />
        <EmptyState icon={<ToolsIcon size={36} />} title={t('toolDetail.pick')}>
          <p>{t('toolDetail.pickBody')}</p>
        </EmptyState>
      </div>
    );
  }
  return (
    <div className="pane pane--detail">
      {tool.isError ? (
        <p className="pane__message error-text" role="alert">
          {tool.error.message}
        </p>
      ) : tool.data?.status === 'invalid' ? (
        <div className="pane__message">
          <p className="error-text">{t('toolDetail.invalid', { reason: tool.data.invalidReason })}</p>
          <p className="muted">
            <Trans i18nKey="toolDetail.fixFile" values={{ file: tool.data.file }} components={[<code dir="ltr" />]} />
          </p>
        </div>
      ) : tool.data ? (
        <>
          <Definition tool={tool.data} />
          <SavedToolTester tool={tool.data} />
        </>
      ) : (
        <p className="pane__message muted">{t('toolDetail.loading')}</p>
      )}
    </div>
  );
}

function SavedToolTester({ tool }: { tool: ToolView }) {
  const transport = useCoreTransport();
  const queryClient = useQueryClient();
  const key = `${tool.bundleID}/${tool.slug}@${tool.version}`;
  const address = { bundleID: tool.bundleID, slug: tool.slug, version: tool.version };
  const impl = useEffectiveImpl(tool.bundleID, tool.type === 'http' ? tool.impl : undefined);
  // Read once, when this tool's tester opens: arguments of a chat's call opened here; then forgotten.
  const [initialArgs] = useState(() => useToolsUi.getState().testerPrefillFor(address));
  useEffect(() => {
    useToolsUi.getState().clearTesterPrefill(address);
    // Once per tester: the address is what keys it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <Tester
      key={key}
      target={{
        key,
        book: { bundleID: tool.bundleID, toolSlug: tool.slug },
        ...(initialArgs ? { initialArgs } : {}),
        name: tool.displayName,
        argSchema: tool.argSchema,
        ...(impl ? { impl } : {}),
        ...(tool.available ? {} : { unavailableReason: tool.unavailableReason }),
        // An MCP tool with an app shows it with each run, to use and debug it without a model.
        ...(tool.type === 'mcp' && tool.impl.ui?.resourceUri
          ? {
              app: (args: Record<string, unknown>, result: InvokeResult) => (
                <McpAppView tool={{ bundleID: tool.bundleID, slug: tool.slug, displayName: tool.displayName }} input={args} inputComplete result={result} structured={tool.outputSchema !== undefined} />
              ),
            }
          : {}),
        run: async (args, signal, { resume, progressId }) => {
          const result = (await transport.invoke(
            'tools.invoke',
            { bundleID: tool.bundleID, toolSlug: tool.slug, version: tool.version, args, trace: true, keepInHistory: true, progressId, ...(resume ? { resume } : {}) },
            { signal },
          )) as InvokeResult;
          // The call counts in the usage shown above.
          void queryClient.invalidateQueries({ queryKey: toolKeys.tool(tool.bundleID, tool.slug, tool.version) });
          return result;
        },
      }}
    />
  );
}
