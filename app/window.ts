import { BrowserWindow, session, shell } from 'electron';
import type { Logger } from '../main/log.js';
import { grantsDevicePermission } from './permission-policy.js';
import { APP_ENTRY_URL, APP_ORIGIN, externalUrlToOpen, isAppUrl } from './url-policy.js';
import { mainWindowOptions } from './window-options.js';

/** Denies every permission (camera, notifications, geolocation, ...) by default. */
export function denyAllPermissions(): void {
  session.defaultSession.setPermissionRequestHandler((_webContents, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
}

/**
 * Once the app sandbox listens: still nothing for the window, and for an MCP
 * App the device features the person allowed it in its card (the window's
 * `allow` delegation is what says so; `permission-policy.ts`).
 */
export function grantAppDevicePermissions(sandboxOrigin: string): void {
  const place = { sandboxOrigin, windowOrigin: APP_ORIGIN };
  session.defaultSession.setPermissionRequestHandler((_webContents, permission, callback, details) => {
    const mediaTypes = 'mediaTypes' in details ? details.mediaTypes : undefined;
    callback(grantsDevicePermission({ permission, requestingUrl: details.requestingUrl, isMainFrame: details.isMainFrame, ...(mediaTypes ? { mediaTypes } : {}) }, place));
  });
  session.defaultSession.setPermissionCheckHandler((_webContents, permission, _requestingOrigin, details) =>
    grantsDevicePermission(
      {
        permission,
        requestingUrl: details.requestingUrl,
        isMainFrame: details.isMainFrame,
        embeddingOrigin: details.embeddingOrigin,
        ...(details.mediaType ? { mediaTypes: [details.mediaType] } : {}),
      },
      place,
    ),
  );
}

export function createMainWindow(preloadPath: string, log: Logger): BrowserWindow {
  const window = new BrowserWindow(mainWindowOptions(preloadPath));
  const contents = window.webContents;

  contents.on('will-navigate', (event, url) => {
    if (isAppUrl(url)) return;
    event.preventDefault();
    openExternally(url, log);
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    openExternally(url, log);
    return { action: 'deny' };
  });
  window.once('ready-to-show', () => window.show());
  window.loadURL(APP_ENTRY_URL).catch((error: unknown) => log.error('the window could not load the app', { error: String(error) }));
  return window;
}

function openExternally(url: string, log: Logger): void {
  const safe = externalUrlToOpen(url);
  if (!safe) {
    log.warn('refused to open a link', { url });
    return;
  }
  shell.openExternal(safe).catch((error: unknown) => log.warn('the link could not be opened', { error: String(error) }));
}
