import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, dialog, ipcMain, Menu, type BrowserWindow } from 'electron';
import { APP_IDENTITY } from '../main/app-identity.js';
import { createCore, type Core } from '../main/core/create-core.js';
import { installProcessGuards } from '../main/common/process-guards.js';
import { createLogger } from '../main/log.js';
import { createSafeStorageCipher } from './cipher.js';
import { connectIpc } from './ipc.js';
import { buildMenu } from './menu.js';
import { startAppSandbox, type AppSandbox } from '../main/server/app-sandbox.js';
import { registerAppSchemeAsPrivileged, serveRendererOverAppScheme } from './protocol.js';
import { createMainWindow, denyAllPermissions, grantAppDevicePermissions } from './window.js';
import { utilityImportProcess } from './import-process.js';
import { mcpStdioArguments, mcpStdioCommand } from './launch-mode.js';
import { runMcpStdio } from '../main/server/mcp-stdio.js';
import { openInWindow, type OpenRequest } from '../main/core/open-request.js';
import { LINK_SCHEME } from '../shared/links/toolbelt-link.js';
import { openRequestOf } from './links.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const log = createLogger({ level: process.env.TOOLBELT_LOG_LEVEL === 'debug' ? 'debug' : 'info' });
installProcessGuards(log);

registerAppSchemeAsPrivileged();
// A separate data folder (tests, a second profile); must precede the lock,
// which is per folder.
if (process.env.TOOLBELT_DATA_DIR) app.setPath('userData', path.resolve(process.env.TOOLBELT_DATA_DIR));

const stdioArguments = mcpStdioArguments(process.argv);
if (stdioArguments) {
  // Started by another app as Toolbelt's MCP server: stdin/stdout carry the protocol; no window, no dock icon, no lock
  // (it runs beside the app on the same folder, as the command-line server does).
  app.dock?.hide();
  runMcpStdio(stdioArguments.includes('--data-dir') ? stdioArguments : [...stdioArguments, '--data-dir', app.getPath('userData')]).catch((error: unknown) => {
    process.stderr.write(`Toolbelt could not serve MCP on stdio: ${error instanceof Error ? error.message : String(error)}\n`);
    app.exit(1);
  });
} else if (!app.requestSingleInstanceLock()) {
  // Another Toolbelt owns the data folder; it focuses its window (below).
  app.quit();
} else {
  let mainWindow: BrowserWindow | null = null;
  let core: Core | null = null;
  let appSandbox: AppSandbox | null = null;

  // toolbelt:// links and .mcpb files: from this launch's arguments, a second launch's (handed over by the lock),
  // or macOS's open-url and open-file; kept until the window has loaded, then shown there (app/links.ts).
  const waiting: OpenRequest[] = [openRequestOf(process.argv)];
  let windowReady = false;
  const deliver = (request: OpenRequest) => {
    if (!core || !windowReady) return void waiting.push(request);
    openInWindow(core, request).catch((error: unknown) => log.error('could not open what the app was given', { error: String(error) }));
  };
  if (process.defaultApp && process.argv[1]) app.setAsDefaultProtocolClient(LINK_SCHEME, process.execPath, [path.resolve(process.argv[1])]);
  else app.setAsDefaultProtocolClient(LINK_SCHEME);
  app.on('open-url', (event, url) => {
    event.preventDefault();
    deliver({ links: [url], bundles: [] });
  });
  app.on('open-file', (event, file) => {
    event.preventDefault();
    deliver({ links: [], bundles: [file] });
  });

  app.on('second-instance', (_event, argv) => {
    deliver(openRequestOf(argv));
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });

  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-attach-webview', (attachEvent) => attachEvent.preventDefault());
  });

  app.whenReady().then(async () => {
    denyAllPermissions();
    // MCP Apps run on a second origin (a loopback port), never the window's.
    appSandbox = await startAppSandbox({ rendererDir: path.join(here, '../renderer'), log });
    grantAppDevicePermissions(appSandbox.origin);
    serveRendererOverAppScheme(path.join(here, '../renderer'), appSandbox.origin);
    Menu.setApplicationMenu(buildMenu(app.isPackaged));
    core = await createCore({
      dataDir: app.getPath('userData'),
      hostKind: 'electron',
      app: { name: APP_IDENTITY.name, version: app.getVersion() },
      cipher: createSafeStorageCipher(process.env.TOOLBELT_ALLOW_PLAINTEXT_SECRETS === '1'),
      runtime: { electron: process.versions.electron, chrome: process.versions.chrome },
      appSandboxOrigin: appSandbox.origin,
      appDocuments: appSandbox.documents,
      // The app's fuses close the Node mode Node's fork would need: imports convert in a utility process.
      launchImportProcess: utilityImportProcess,
      log,
      environment: process.env,
      // Settings that take a full path (an MCP bundle's folder) get the system's own picker.
      pickPath: async (kind, title) => {
        const options = { properties: [kind === 'directory' ? ('openDirectory' as const) : ('openFile' as const)], ...(title ? { title } : {}) };
        const chosen = mainWindow ? await dialog.showOpenDialog(mainWindow, options) : await dialog.showOpenDialog(options);
        return chosen.canceled ? null : (chosen.filePaths[0] ?? null);
      },
      // Other apps start the same core over stdio with this binary (--mcp-stdio). Secrets the OS keychain
      // holds are not read there: the HTTP address is the way for tools that use them (README).
      mcpShare: {
        listen: true,
        stdioCommand: mcpStdioCommand({ execPath: process.execPath, isPackaged: app.isPackaged, appPath: app.getAppPath(), dataDir: app.getPath('userData') }),
      },
    });
    mainWindow = createMainWindow(path.join(here, '../preload/preload.cjs'), log);
    const disconnect = connectIpc(ipcMain, core, mainWindow, log);
    mainWindow.webContents.once('did-finish-load', () => {
      windowReady = true;
      for (const request of waiting.splice(0)) deliver(request);
    });
    mainWindow.on('closed', () => {
      disconnect();
      mainWindow = null;
    });
  }).catch((error: unknown) => {
    log.error('Toolbelt could not start', { error: String(error) });
    app.exit(1);
  });

  app.on('window-all-closed', () => {
    const closing = Promise.all([core?.close(), appSandbox?.close()]);
    closing.then(
      () => app.quit(),
      (error: unknown) => {
        log.error('closing the core failed', { error: String(error) });
        app.quit();
      },
    );
  });
}
