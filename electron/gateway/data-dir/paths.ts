import { homedir } from 'node:os'
import { join } from 'node:path'

/**
 * Where the gateway keeps its store when no --data-dir is given: the same folder Electron's
 * `app.getPath('userData')` names for an app called Gatehouse, so headless and desktop runs share it.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.GATEHOUSE_DATA_DIR) return env.GATEHOUSE_DATA_DIR
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Gatehouse')
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Gatehouse')
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'Gatehouse')
}

/** The fixed default port of the desktop app and `npm start`. */
export const DEFAULT_PORT = 8787
