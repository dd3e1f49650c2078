import { ToolbeltError } from '../../../shared/errors.js';
import { bundleAllowedHosts, effectiveHttp } from '../../../shared/tools/http-inherit.js';
import type { Handlers } from '../../api/dispatcher.js';
import type { SecretStore } from '../../secrets/secret-store.js';
import type { SettingsStore } from '../../settings/settings-store.js';
import type { ToolStore } from '../../store/tool-store.js';
import { InvokeFailure } from '../invoke-error.js';
import type { BrowserSignInClient, OAuthSignIns } from './oauth-sign-in.js';
import { renderText, secretNamesIn, type RenderScope } from './render.js';

interface Target {
  bundleID: string;
  toolSlug?: string | undefined;
  version?: string | undefined;
}

/** Browser sign-ins of connections that use OAuth 2's authorization code: state, start, sign out. */
export function oauthHandlers(deps: { store: ToolStore; settings: SettingsStore; secrets: SecretStore; signIns: OAuthSignIns }): Pick<Handlers, 'oauth.state' | 'oauth.signIn' | 'oauth.signOut'> {
  /** The connection's client, its ID and secret filled from secrets, with the hosts its tools may reach. */
  const clientOf = async (target: Target): Promise<BrowserSignInClient> => {
    const bundle = await deps.store.requireBundle(target.bundleID);
    const globalHosts = deps.settings.get().allowedHosts;
    let auth = bundle.bundle.http?.auth;
    let allowedHosts = bundleAllowedHosts(bundle.bundle.http, globalHosts);
    let where = `“${bundle.bundle.displayName}”`;
    if (target.toolSlug !== undefined || target.version !== undefined) {
      if (target.toolSlug === undefined || target.version === undefined) throw new ToolbeltError('invalid_params', 'Name both the tool and its version, or neither for the bundle’s connection.');
      const record = await deps.store.requireTool(target.bundleID, target.toolSlug, target.version);
      if (record.kind !== 'valid' || record.tool.type !== 'http') throw new ToolbeltError('invalid_params', `${target.toolSlug} ${target.version} is not an HTTP tool that can sign in.`);
      const found = effectiveHttp(record.tool.impl, bundle.bundle.http, globalHosts);
      if (!found.ok) throw new ToolbeltError('tool_unavailable', `${record.tool.displayName} cannot run: ${found.problem}.`);
      ({ allowedHosts } = found);
      auth = found.impl.auth;
      where = `“${record.tool.displayName}”`;
    }
    if (auth?.kind !== 'oauth2' || auth.flow !== 'authorizationCode') {
      throw new ToolbeltError('invalid_params', `${where} does not sign in in the browser: its connection has no OAuth 2 sign-in (authorization code). Set one in its connection first.`);
    }
    const templates = [auth.clientId, ...(auth.clientSecret === undefined ? [] : [auth.clientSecret])];
    const secrets = new Map<string, string>();
    for (const name of templates.flatMap((template) => secretNamesIn(template, new Set()))) {
      const value = await deps.secrets.resolve(name);
      if (value === null) throw new ToolbeltError('missing_secret', `The sign-in of ${where} needs the secret ${name}, which is not set. Add it in Settings → Secrets.`, { secret: name });
      secrets.set(name, value);
    }
    const scope: RenderScope = { args: {}, argumentNames: new Set(), secrets, usedSecrets: new Set() };
    try {
      return {
        auth,
        clientId: renderText(auth.clientId, scope, 'the client ID'),
        clientSecret: auth.clientSecret === undefined ? undefined : renderText(auth.clientSecret, scope, 'the client secret'),
        allowedHosts,
      };
    } catch (error) {
      if (error instanceof InvokeFailure) throw new ToolbeltError('invalid_params', `The sign-in of ${where} cannot start: ${error.message}`);
      throw error;
    }
  };

  return {
    'oauth.state': async (target) => {
      try {
        return await deps.signIns.state(await clientOf(target));
      } catch (error) {
        // Nobody can be signed in to a client whose ID is not set yet: that is the state, with what to do.
        if (error instanceof ToolbeltError && error.code === 'missing_secret') return { state: 'signed-out', error: error.message };
        throw error;
      }
    },
    'oauth.signIn': async (target) => deps.signIns.start(await clientOf(target)),
    'oauth.signOut': async (target) => deps.signIns.signOut(await clientOf(target)),
  };
}
