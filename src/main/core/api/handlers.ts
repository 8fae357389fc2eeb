import type { InvokeChannel, InvokeResult, ParsedRequest } from '../../../shared/ipc/contract'
import { isExternalHttpUrl } from '../../../shared/csp'
import type { Core } from '../core'
import { registryHandlers } from '../config/handlers'

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
    ...registryHandlers(core.registry, core.env),
  } satisfies Handlers
}
