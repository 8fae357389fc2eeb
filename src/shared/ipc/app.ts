import { z } from 'zod'
import type { RegistrySource } from '../model/registry'
import type { Panel } from '../panels'

export interface AppInfo {
  productName: string
  version: string
  /** Runtime versions, e.g. `{ node: '22.23.3', electron: '45.4.1' }`. */
  versions: Record<string, string>
  platform: string
  /** Folder holding settings, profiles, the audit log and the layered config. */
  dataDir: string
  registry: RegistrySource
  /** Things the user must know since startup (e.g. demo keys passed without a keychain). */
  notices: AppNotice[]
}

export interface AppNotice {
  level: 'info' | 'warning' | 'error'
  message: string
  at: number
  /** What to do about it, when the message alone does not say. */
  detail?: string
  /**
   * A notice that may come back every start (no keychain) has an id: dismissed with
   * `app:dismiss-notice`, it is not shown again (settings.json `dismissedNotices`).
   */
  id?: string
}

/** The opt-in Prometheus endpoint (`metrics` in settings.json) and whether it serves. */
export interface MetricsState {
  enabled: boolean
  /** The loopback port asked for (0: any free one). */
  port: number
  /** Where it serves, while it does. */
  url?: string
  /** Why the last change did not take (e.g. the port is in use); the setting was kept. */
  error?: string
}

export const appRequests = {
  'app:info': z.undefined(),
  /** Opens an http(s) URL in the system browser (the preload demands a user click first). */
  'app:open-external': z.object({ url: z.string().max(8192) }),
  /** Never shows the notice with this id again (remembered in settings.json). */
  'app:dismiss-notice': z.object({ id: z.string().min(1).max(100) }),
  'metrics:get': z.undefined(),
  /** Serves `/metrics` on 127.0.0.1:`port` (0: any free one) or stops; saved when it took. */
  'metrics:set': z.object({
    enabled: z.boolean(),
    port: z.number().int().min(0).max(65_535),
  }),
}

export interface AppResults {
  'app:info': AppInfo
  'app:open-external': { opened: boolean }
  'app:dismiss-notice': { dismissed: true }
  'metrics:get': MetricsState
  'metrics:set': MetricsState
}

export interface AppEvents {
  /** Something the user should see once, e.g. "demo keys passed through the environment". */
  'app:notice': AppNotice
  /** The desktop app's menu (View → Servers … Audit) asked for a panel. */
  'app:show-panel': { panel: Panel }
}
