import type { ChannelHandlers } from '#shared/ipc/contract'
import { isExternalHttpUrl } from '#shared/csp'
import type { Core } from '../core'
import { registryHandlers } from '../config/handlers'
import { authHandlers } from '../auth/handlers'
import { doctorHandlers } from '../services/doctor/handlers'
import { evaluationHandlers } from '../services/eval/handlers'
import { profileHandlers } from '../services/profile-handlers'
import { ragHandlers } from '../services/rag-handlers'
import { workbenchHandlers } from '../services/workbench-handlers'
import type { SecretRedactor } from '../secrets/redactor'

/** Where a handler map carries the redactor that {@link dispatch} passes every response through. */
export const RESPONSE_REDACTOR: unique symbol = Symbol('responseRedactor')

/** One handler per channel, with the redactor their responses pass through. */
export type Handlers = ChannelHandlers & { readonly [RESPONSE_REDACTOR]?: SecretRedactor }

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
    'app:dismiss-notice': ({ id }) => {
      core.dismissNotice(id)
      return { dismissed: true }
    },
    'elicit:pending': () => core.elicitation?.list() ?? [],
    'elicit:answer': ({ id, answer }) => ({
      answered: core.elicitation?.answer(id, answer) ?? false,
    }),
    'metrics:get': () => core.metricsState(),
    'metrics:set': (metrics) => core.setMetrics(metrics),
    'secrets:list': (request) => core.secrets.list(request?.server),
    'secrets:set': async ({ server, name, value }) => {
      await core.secrets.set(server, name, value)
      return { server, name, present: true }
    },
    'secrets:delete': async ({ server, name }) => ({
      server,
      name,
      deleted: await core.secrets.delete(server, name),
    }),
    'secrets:session-set': ({ server, name, value }) => {
      core.secrets.setSessionToken(server, name, value)
      return { server, name }
    },
    'secrets:session-clear': ({ server, name }) => ({
      server,
      cleared: core.secrets.clearSessionTokens(server, name),
    }),
    'secrets:session-list': (request) => ({
      tokens: core.secrets.listSessionTokens(request?.server),
    }),
    'pool:status': () => core.pool.statuses(),
    'pool:health': (request) => core.pool.health(request?.server),
    'pool:reconnect': ({ server }) => core.pool.reconnect(server),
    'pool:log': ({ server, limit }) => ({ server, lines: core.pool.log(server, limit) }),
    // A server tried in the workbench lives in a pool of its own.
    'pool:tools': ({ server, refresh }) =>
      core.workbench.tries.has(server)
        ? core.workbench.tries.tools(server, refresh ?? false)
        : core.pool.tools(server, { refresh: refresh ?? false }),
    ...registryHandlers(core.registry, core.env, core.secrets),
    ...profileHandlers(core.settings, core.events),
    ...ragHandlers(core.services),
    ...workbenchHandlers(core.workbench),
    ...doctorHandlers(core.services),
    ...evaluationHandlers(core.services),
    ...authHandlers(core.auth, platform.openExternal),
    [RESPONSE_REDACTOR]: core.redactor,
  } satisfies Handlers
}
