import { existsSync } from 'node:fs'

/** Debian's Chromium packages: the headless shell first, the full browser if that is all there is. */
const DEBIAN_CHROMIUMS = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium']

/**
 * The Chromium the e2e specs and the browser-host bench drive: `CHROMIUM_PATH` when set, else
 * Debian's `chromium-headless-shell` (what Playwright itself runs headless: half the CPU of the
 * full browser in headless mode, the same Blink), else Debian's `chromium`. A browser is never
 * downloaded.
 */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH
  return DEBIAN_CHROMIUMS.find((path) => existsSync(path)) ?? DEBIAN_CHROMIUMS[1]!
}
