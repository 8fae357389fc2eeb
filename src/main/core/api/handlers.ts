import type { InvokeChannel, InvokeResult, ParsedRequest } from '../../../shared/ipc/contract'
import { isExternalHttpUrl } from '../../../shared/csp'
import type { Core } from '../core'

/** One handler per channel; a channel without a handler does not compile. */
export type Handlers = {
  [C in InvokeChannel]: (request: ParsedRequest<C>) => Promise<InvokeResult<C>> | InvokeResult<C>
}

/** What only the hosting process can do (Electron's shell, for example). */
export interface PlatformHooks {
  openExternal?: (url: string) => Promise<void>
}

/** Binds the IPC contract to the core. Shared by Electron's ipcMain and the browser host. */
export function createHandlers(core: Core, platform: PlatformHooks = {}): Handlers {
  return {
    'app:info': () => core.info(),
    'app:open-external': async ({ url }) => {
      if (!isExternalHttpUrl(url) || !platform.openExternal) return { opened: false }
      await platform.openExternal(url)
      return { opened: true }
    },
    'pool:status': () => core.pool.statuses(),
    'pool:health': (request) => core.pool.health(request?.server),
    'pool:reconnect': ({ server }) => core.pool.reconnect(server),
    'pool:log': ({ server, limit }) => ({ server, lines: core.pool.log(server, limit) }),
    'pool:tools': ({ server, refresh }) => core.pool.tools(server, { refresh: refresh ?? false }),
  } satisfies Handlers
}
