import { homedir } from 'node:os'
import { join } from 'node:path'
import { version } from '../../../package.json'

export const PRODUCT_NAME = 'RAG Console'

/** The app's version: only this field of package.json goes into the bundles. */
export const APP_VERSION: string = version

/**
 * The app's data folder, the same one Electron's `app.getPath('userData')` gives, so the
 * desktop app, the browser host and the CLI share settings, profiles and the layered config.
 * `RAG_CONSOLE_HOME` overrides it (tests, portable installs).
 */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  if (env.RAG_CONSOLE_HOME) return env.RAG_CONSOLE_HOME
  const home = env.HOME ?? homedir()
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', PRODUCT_NAME)
  if (platform === 'win32') {
    return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), PRODUCT_NAME)
  }
  return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), PRODUCT_NAME)
}
