import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { asMcpToolResult } from '../../../shared/mcp/mcp-tool-result.js';
import { useApi } from '../../api/context.js';
import { ErrorLine, errorMessage } from '../../components/ErrorLine.js';
import { useAppInfo } from '../../queries/app.js';
import { useAppResource } from '../../queries/apps.js';
import { useDark } from '../../components/use-dark.js';
import { openAppSession, type AppSession } from './app-bridge.js';
import { AppPermissions, useGrantedFeatures } from './AppPermissions.js';
import { keepAppProcessWarm } from './warm-process.js';
import { keepRelayInStandby, placeRelayFrame } from './relay-frames.js';

/** How tall an app may grow inline before it scrolls inside its frame; what it starts at until it says. */
const MAX_INLINE_HEIGHT = 600;
const START_HEIGHT = 120;

interface McpAppViewProps {
  tool: { bundleID: string; slug: string; displayName: string };
  input: Record<string, unknown>;
  /** False while the model is still writing the arguments: the app is given them as far as they go. */
  inputComplete: boolean;
  /** The call's result once there is one; an app can show its input before. */
  result: Parameters<typeof asMcpToolResult>[0] | undefined;
  /** Whether the tool declares an output schema (its object result is structured content). */
  structured: boolean;
  /** Why the call did not run to its end (cancelled, denied), when it did not. */
  cancelled?: string;
  /** Sends the app's message into the chat; absent where there is none (the tester). */
  onMessage?: (text: string) => Promise<void>;
  /** Keeps what the app says the model should know of it; absent where no model reads it (the tester). */
  onModelContext?: (text: string) => Promise<void>;
}

const base64Url = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text))).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/**
 * An MCP tool's own UI (MCP Apps) in its call's card: framed from the app
 * sandbox's origin, never the window's, sized by the app up to a limit, with
 * a full-screen mode and a way back. A server that is gone, or an app that
 * does not start, leaves the card as it was and says why.
 */
export function McpAppView({ tool, input, inputComplete, result, structured, cancelled, onMessage, onModelContext }: McpAppViewProps) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const info = useAppInfo();
  const resource = useAppResource({ bundleID: tool.bundleID, slug: tool.slug });
  // The relay's frame is placed here by hand (relay-frames.ts): it may be one loaded ahead, which React cannot make.
  const slot = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLIFrameElement | null>(null);
  const session = useRef<AppSession | null>(null);
  const [height, setHeight] = useState(START_HEIGHT);
  const [mode, setMode] = useState<'inline' | 'fullscreen'>('inline');
  const [state, setState] = useState<'starting' | 'ready' | 'handshake' | 'connect'>('starting');
  const dark = useDark();
  const origin = info.data?.appSandboxOrigin;
  // What the app is told of where it runs, kept up to date as the theme, the language and its display mode change.
  const hostContext = useMemo(
    () => ({
      theme: dark ? ('dark' as const) : ('light' as const),
      locale: i18n.language,
      displayMode: mode,
      availableDisplayModes: ['inline' as const, 'fullscreen' as const],
      containerDimensions: mode === 'inline' ? { maxHeight: MAX_INLINE_HEIGHT } : { height: window.innerHeight },
      platform: 'desktop' as const,
    }),
    [dark, i18n.language, mode],
  );
  const latestContext = useRef(hostContext);
  useEffect(() => {
    latestContext.current = hostContext;
    session.current?.context(hostContext);
  }, [hostContext]);

  // Started as the card appears, while the app's document is still being read: the first app's process starts meanwhile.
  useEffect(() => {
    if (!origin) return;
    keepAppProcessWarm(origin);
    keepRelayInStandby(origin);
  }, [origin]);

  const html = resource.data?.html;
  const granted = useGrantedFeatures(tool.bundleID, resource.data?.uri, resource.data?.permissions);
  // Features are fixed when a frame loads: allowing them starts the app again in a frame that has them.
  const grantedKey = granted.join('; ');
  // Before the card paints: the frame is there, at its height, in the same frame as the card that holds it.
  useLayoutEffect(() => {
    if (!slot.current || !origin || html === undefined) return;
    const csp = base64Url(JSON.stringify(resource.data?.csp ?? {}));
    const digest = resource.data?.digest;
    // With the digest the sandbox serves the relay with the app's frame in it; the text goes along only if it must.
    const served = digest ? `&doc=${digest}&allow=${encodeURIComponent(granted.join(','))}` : '';
    const placed = placeRelayFrame(slot.current, {
      origin,
      src: `${origin}/app?host=${encodeURIComponent(window.location.origin)}&csp=${csp}${served}`,
      ...(digest ? { digest } : {}),
      allow: grantedKey,
    });
    frame.current = placed.frame;
    const opened = openAppSession({
      api,
      frame: placed.frame,
      start: placed.start,
      html,
      permissions: granted,
      tool,
      version: info.data?.version ?? '0',
      hostContext: latestContext.current,
      onHeight: (wanted) => setHeight(Math.max(40, Math.min(wanted, 20_000))),
      onDisplayMode: setMode,
      onMessage: async (text) => {
        if (!onMessage || !text.trim()) return false;
        await onMessage(text);
        return true;
      },
      ...(onModelContext ? { onModelContext } : {}),
      onReady: () => setState('ready'),
      onProblem: setState,
    });
    session.current = opened;
    return () => {
      opened.close();
      session.current = null;
      placed.close();
      frame.current = null;
    };
    // One session per document and grant; what changes later is sent to it below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [origin, html, grantedKey]);

  // What React would write on a frame it made: its name and its height, as they change (the frame may be new).
  const title = t('apps.frameTitle', { tool: tool.displayName });
  const shownHeight = mode === 'inline' ? Math.min(height, MAX_INLINE_HEIGHT) : undefined;
  useLayoutEffect(() => {
    if (!frame.current) return;
    frame.current.title = title;
    frame.current.style.height = shownHeight ? `${shownHeight}px` : '';
  }, [title, shownHeight, origin, html, grantedKey]);

  useEffect(() => {
    session.current?.update({ input, complete: inputComplete }, result ? asMcpToolResult(result, structured) : null, cancelled);
  }, [input, inputComplete, result, structured, cancelled, state]);
  useEffect(() => {
    if (mode !== 'fullscreen') return;
    const back = (event: KeyboardEvent) => event.key === 'Escape' && setMode('inline');
    window.addEventListener('keydown', back);
    return () => window.removeEventListener('keydown', back);
  }, [mode]);

  if (info.data && !origin) return <p className="muted mcp-app__note">{t('apps.noSandbox')}</p>;
  if (resource.isError) return <ErrorLine className="mcp-app__note" message={t('apps.failed', { reason: errorMessage(resource.error) })} />;
  return (
    <section className={`mcp-app mcp-app--${mode}`} aria-label={t('apps.region', { tool: tool.displayName })}>
      <div className="mcp-app__bar">
        <span className="muted">{state === 'starting' ? t('apps.starting') : t('apps.label')}</span>
        <button type="button" className="button button--small button--ghost" onClick={() => setMode(mode === 'inline' ? 'fullscreen' : 'inline')}>
          {mode === 'inline' ? t('apps.fullscreen') : t('apps.back')}
        </button>
      </div>
      {state === 'handshake' || state === 'connect' ? <ErrorLine message={t(state === 'handshake' ? 'apps.noHandshake' : 'apps.lost')} /> : null}
      {resource.data?.permissions.length ? <AppPermissions bundleID={tool.bundleID} uri={resource.data.uri} declared={resource.data.permissions} /> : null}
      <div ref={slot} className="mcp-app__slot" />
    </section>
  );
}
