import os from 'node:os';
import path from 'node:path';

/**
 * The folder Electron would use as userData for "Toolbelt", so the browser
 * host and the desktop app share one set of bundles and chats by default.
 */
export function defaultDataDir(appName: string, env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const home = os.homedir();
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), appName);
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', appName);
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), appName);
}
