import { AGENT_MAX_TURNS_DEFAULT } from '../../../shared/schemas/agent.js';
import { useEffect, useState } from 'react';
import type { ToolView } from '../../../shared/schemas/tool.js';
import type { HttpImpl } from '../../../shared/schemas/http-impl.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ToolsIcon } from '../../components/icons.js';
import { useQueryClient } from '@tanstack/react-query';
import { toolKeys, useBundleHttp, useEffectiveImpl, useTool } from '../../queries/tools.js';
import { effectiveHttp } from '../../../shared/http-inherit.js';
import { useToolsUi } from '../../state/tools-ui.js';
import type { InvokeResult } from '../../../shared/schemas/invocation.js';
import { useCoreTransport } from '../../api/context.js';
import { Tester } from '../tester/Tester.js';
import { ToolEditor } from './editor/ToolEditor.js';
import { McpOfferings } from './McpOfferings.js';
import { SignInStrip } from './SignInStrip.js';
import { useMcpServers } from '../../queries/mcp.js';
import { VersionBadge } from '../../components/VersionBadge.js';
import { DeleteToolButton, ToolVersions } from './ToolVersions.js';

/** How a connection signs in, in a person's words. */
function authLabel(auth: NonNullable<HttpImpl['auth']>): string {
  switch (auth.kind) {
    case 'apiKey':
      return `API key in ${auth.location} ${auth.name}`;
    case 'bearer':
      return 'bearer token';
    case 'basic':
      return 'user name and password';
    case 'oauth2':
      return auth.flow === 'authorizationCode' ? 'OAuth 2, signed in in the browser' : 'OAuth 2 client credentials';
    case 'hmac':
      return 'HMAC signature';
    case 'none':
      return 'none';
  }
}

/** Where an HTTP tool sends its request, and what it takes from its bundle (base URL, sign-in, headers, timeout). */
function HttpTarget({ tool }: { tool: Extract<ToolView, { type: 'http' }> }) {
  const bundleHttp = useBundleHttp(tool.bundleID);
  const effective = effectiveHttp(tool.impl, bundleHttp, []);
  if (!effective.ok) {
    return (
      <>
        <code>
          {tool.impl.method} {tool.impl.urlTemplate}
        </code>
        <span className="warning-text"> · cannot run: {effective.problem}</span>
      </>
    );
  }
  const { inherited, impl } = effective;
  const fromBundle = [
    inherited.baseUrl ? 'base URL' : null,
    inherited.auth && impl.auth ? `sign-in (${authLabel(impl.auth)})` : null,
    inherited.headers.length ? `${inherited.headers.length === 1 ? 'header' : 'headers'} ${inherited.headers.join(', ')}` : null,
    inherited.timeoutMs ? `timeout ${impl.timeoutMs} ms` : null,
  ].filter(Boolean);
  return (
    <>
      <code>
        {impl.method} {impl.urlTemplate}
      </code>
      {fromBundle.length ? <span className="muted"> · from its bundle: {fromBundle.join(', ')}</span> : null}
      {tool.impl.auth?.kind === 'none' && bundleHttp?.auth ? <span className="muted"> · sends no credentials</span> : null}
    </>
  );
}

function Definition({ tool }: { tool: ToolView }) {
  const openEditor = useToolsUi((state) => state.openEditor);
  return (
    <section className="definition" aria-labelledby="definition-title">
      <div className="definition__head">
        <h2 id="definition-title" className="definition__title">
          {tool.displayName}
        </h2>
        <code className="muted">
          {tool.slug}@{tool.version}
        </code>
        <VersionBadge tool={tool} />
        {tool.isBuiltIn ? <span className="badge">Built-in · read-only</span> : null}
        {!tool.isEnabled ? <span className="badge badge--quiet">Off</span> : null}
        {!tool.readOnly ? (
          <button
            type="button"
            className="button definition__action"
            onClick={() => openEditor({ mode: 'version', address: { bundleID: tool.bundleID, slug: tool.slug, version: tool.version } })}
          >
            New version…
          </button>
        ) : null}
        <DeleteToolButton tool={tool} />
      </div>
      <ToolVersions tool={tool} />
      {tool.description ? <p className="definition__description">{tool.description}</p> : null}
      <dl className="facts facts--compact">
        <dt>Runs</dt>
        <dd>
          {tool.type === 'http' ? (
            <HttpTarget tool={tool} />
          ) : tool.type === 'mcp' ? (
            <>
              Tool <code>{tool.impl.tool}</code> of the MCP server <code>{tool.impl.server}</code>
            </>
          ) : tool.type === 'agent' ? (
            <>
              An agent on <code>{tool.impl.model}</code> ({tool.impl.providerId}) with {tool.impl.tools.length} tool{tool.impl.tools.length === 1 ? '' : 's'}, up to{' '}
              {tool.impl.maxTurns ?? AGENT_MAX_TURNS_DEFAULT} turns
            </>
          ) : (
            <>
              Local function <code>{tool.impl.func}</code>
            </>
          )}
        </dd>
        {tool.tags.length ? (
          <>
            <dt>Tags</dt>
            <dd>{tool.tags.join(', ')}</dd>
          </>
        ) : null}
        <dt>Asks first</dt>
        <dd>{tool.requiresApproval ? 'Yes, before every call from a chat' : 'No'}</dd>
        <dt>Used</dt>
        <dd>
          {tool.usage.callCount} {tool.usage.callCount === 1 ? 'call' : 'calls'}
          {tool.usage.lastCalledAt ? `, last ${new Date(tool.usage.lastCalledAt).toLocaleString()}` : ''}
        </dd>
      </dl>
      {tool.type === 'http' && tool.impl.auth?.kind === 'oauth2' && tool.impl.auth.flow === 'authorizationCode' ? (
        <SignInStrip target={{ bundleID: tool.bundleID, toolSlug: tool.slug, version: tool.version }} name={tool.displayName} />
      ) : null}
      <details className="schema">
        <summary>Arguments schema</summary>
        <pre className="code-block">{JSON.stringify(tool.argSchema, null, 2)}</pre>
      </details>
    </section>
  );
}

/** The selected tool: its definition and the live tester beside it. */
export function ToolDetail() {
  const selected = useToolsUi((state) => state.selected);
  const editor = useToolsUi((state) => state.editor);
  const openEditor = useToolsUi((state) => state.openEditor);
  const selectTool = useToolsUi((state) => state.selectTool);
  const bundleID = useToolsUi((state) => state.bundleID);
  const mcpServers = useMcpServers();
  const tool = useTool(selected);

  if (editor) {
    const base = editor.mode === 'version' && tool.data?.status === 'valid' ? tool.data : null;
    if (editor.mode === 'version' && !base) return <div className="pane pane--detail muted">Loading…</div>;
    return (
      <div className="pane pane--detail">
        <ToolEditor
          key={editor.mode === 'new' ? `new-${editor.bundleID}` : `${editor.address.slug}@${editor.address.version}`}
          bundleID={editor.mode === 'new' ? editor.bundleID : editor.address.bundleID}
          base={base}
          onClose={() => openEditor(null)}
          onSaved={(address) => selectTool(address)}
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
        <EmptyState icon={<ToolsIcon size={36} />} title="Pick a tool">
          <p>Choose a tool on the left to see its definition and run it in the tester: the request as sent, every attempt, the response and the extracted value.</p>
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
          <p className="error-text">This tool’s file is invalid: {tool.data.invalidReason}</p>
          <p className="muted">
            Fix <code>{tool.data.file}</code> in an editor; Toolbelt picks up the change on its own.
          </p>
        </div>
      ) : tool.data ? (
        <>
          <Definition tool={tool.data} />
          <SavedToolTester tool={tool.data} />
        </>
      ) : (
        <p className="pane__message muted">Loading…</p>
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
        run: async (args, signal) => {
          const result = (await transport.invoke(
            'tools.invoke',
            { bundleID: tool.bundleID, toolSlug: tool.slug, version: tool.version, args, trace: true, keepInHistory: true },
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
