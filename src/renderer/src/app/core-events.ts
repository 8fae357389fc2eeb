import type { QueryClient } from '@tanstack/react-query'
import type { AppInfo } from '#shared/ipc/app'
import type { PendingElicitation } from '#shared/ipc/elicitation'
import type { EventMap, EventName, OptInEvent } from '#shared/ipc/events'
import type { ProfilesState } from '#shared/ipc/profiles'
import type { RegistryView } from '#shared/ipc/registry'
import type { RegistryDiff } from '#shared/model/registry'
import type { ServerSummary } from '#shared/model/server'
import { appKeys } from '../features/app/queries'
import { elicitKeys } from '../features/elicitation/queries'
import {
  addRunningRun,
  applyRunFinished,
  applyRunProgress,
  evalKeys,
} from '../features/evaluation/queries'
import { configKeys, registryKeys } from '../features/config/queries'
import { profileKeys } from '../features/profiles/queries'
import { secretKeys } from '../features/secrets/queries'
import { searchFeed } from '../features/search/run-feed'
import { serverKeys } from '../features/servers/queries'
import { signInTabs } from '../features/servers/sign-in-tabs'
import { workbenchKeys } from '../features/workbench/queries'
import type { NoticeInput, Panel } from '../state/store'
import type { InvalidateSoon } from './coalesced-invalidation'

/** What an event handler may touch: the query cache, the notices, and which panel is shown. */
export interface CoreEventContext {
  queryClient: QueryClient
  notify: (notice: NoticeInput) => void
  showPanel: (panel: Panel) => void
  /** Invalidation for events that come in bursts (a whole registry connecting). */
  invalidateSoon: InvalidateSoon
}

/** Re-asking every server for its sources is costly: once a second at most while they connect. */
const DISCOVERY_COALESCE_MS = 1000

/** Events every page gets; opt-in ones are handled by the view that subscribes to them. */
export type AppEventName = Exclude<EventName, OptInEvent>

type CoreEventHandlers = {
  [E in AppEventName]: (payload: EventMap[E], context: CoreEventContext) => void
}

/** `+1 added (x) · 2 changed` — empty when nothing changed. */
export function describeDiff(diff: RegistryDiff): string {
  const parts: string[] = []
  const list = (ids: string[]): string =>
    ids.length <= 3 ? ids.join(', ') : `${ids.slice(0, 3).join(', ')} and ${ids.length - 3} more`
  if (diff.added.length) parts.push(`added ${list(diff.added)}`)
  if (diff.changed.length) parts.push(`changed ${list(diff.changed)}`)
  if (diff.removed.length) parts.push(`removed ${list(diff.removed)}`)
  return parts.join('; ')
}

/**
 * How every event from main lands in the renderer: server data is invalidated or written into
 * the query cache, people are told what they did not cause themselves. The map is exhaustive:
 * a new event in the contract does not compile until it is handled here (or is opt-in).
 */
export const coreEventHandlers: CoreEventHandlers = {
  'app:notice': ({ level, message }, { notify }) => {
    notify({ tone: level === 'error' ? 'bad' : level === 'warning' ? 'warn' : 'info', message })
  },
  // Goes through the same guard as a click: unsaved config edits are asked about first.
  'app:show-panel': ({ panel }, { showPanel }) => showPanel(panel),
  'registry:updated': (event, { queryClient, notify }) => {
    queryClient.setQueryData<AppInfo>(appKeys.info(), (info) =>
      info ? { ...info, registry: event.source } : info,
    )
    void queryClient.invalidateQueries({ queryKey: registryKeys.all })
    void queryClient.invalidateQueries({ queryKey: configKeys.raw() })
    void queryClient.invalidateQueries({ queryKey: configKeys.validations() })
    // Secret references come from the config.
    void queryClient.invalidateQueries({ queryKey: secretKeys.all })
    void queryClient.invalidateQueries({ queryKey: serverKeys.all })
    void queryClient.invalidateQueries({ queryKey: serverKeys.discovery() })
    if (event.trigger === 'watch') {
      const what = describeDiff(event)
      notify({
        tone: 'info',
        message: what
          ? `rag-mcp.json changed on disk and was applied: ${what}.`
          : 'rag-mcp.json changed on disk and was applied.',
      })
    }
  },
  'config:invalid': (event, { queryClient }) => {
    // The banner reads this at once; the refetch below confirms it.
    queryClient.setQueryData<RegistryView>(registryKeys.view(), (view) =>
      view ? { ...view, invalid: { at: event.at, diagnostics: event.diagnostics } } : view,
    )
    void queryClient.invalidateQueries({ queryKey: registryKeys.all })
    void queryClient.invalidateQueries({ queryKey: configKeys.raw() })
  },
  'registry:canaries': ({ canaries }, { queryClient, notify }) => {
    void queryClient.invalidateQueries({ queryKey: registryKeys.history() })
    const broken = canaries.filter((c) => c.regression)
    if (broken.length === 0) return
    const names = broken.map((c) => `${c.server} "${c.canary}"`)
    notify({
      tone: 'warn',
      message: `Canary ${names.join(', ')} fails since the last reload.`,
      detail: `${broken[0]!.failures.join('; ')}. The reload history shows the change that caused it.`,
    })
  },
  'secrets:changed': (_change, { queryClient }) => {
    void queryClient.invalidateQueries({ queryKey: secretKeys.all })
    // Each server's summary says which of its secrets are set.
    void queryClient.invalidateQueries({ queryKey: serverKeys.list() })
  },
  'profiles:changed': (state, { queryClient, notify }) => {
    const before = queryClient.getQueryData<ProfilesState>(profileKeys.list())
    queryClient.setQueryData<ProfilesState>(profileKeys.list(), state)
    if (before && before.activeId !== state.activeId) {
      void queryClient.invalidateQueries({ queryKey: profileKeys.selection() })
      // Who may see which server and source depends on the acting user.
      void queryClient.invalidateQueries({ queryKey: serverKeys.list() })
      void queryClient.invalidateQueries({ queryKey: serverKeys.discovery() })
      const active = state.profiles.find((p) => p.id === state.activeId)
      if (active) {
        notify({
          tone: 'info',
          message: `Now viewing as ${active.name} (${active.userId}).`,
          detail: 'Every search, answer and access check runs as this user from now on.',
        })
      }
    }
  },
  'server:status': ({ server, status }, { queryClient, invalidateSoon }) => {
    // The badge changes at once; the refetch brings latency, tools and dialect.
    queryClient.setQueryData<ServerSummary[]>(serverKeys.list(), (list) =>
      list?.map((summary) => (summary.id === server ? { ...summary, status } : summary)),
    )
    invalidateSoon(serverKeys.all)
    // A server that just connected can now say which sources it has.
    if (status.state === 'ready') invalidateSoon(serverKeys.discovery(), DISCOVERY_COALESCE_MS)
  },
  'selection:changed': (_change, { queryClient }) => {
    void queryClient.invalidateQueries({ queryKey: profileKeys.selection() })
  },
  // A server's form waits in the elicitation dialog until answered here or elsewhere.
  'elicit:request': (form, { queryClient }) => {
    queryClient.setQueryData<PendingElicitation[]>(elicitKeys.pending(), (list) =>
      list?.some((f) => f.id === form.id) ? list : [...(list ?? []), form],
    )
  },
  'elicit:closed': ({ id }, { queryClient }) => {
    queryClient.setQueryData<PendingElicitation[]>(elicitKeys.pending(), (list) =>
      list?.filter((f) => f.id !== id),
    )
  },
  // Folded into the run the Search panel shows, also while another panel is shown.
  'search:progress': (event, { queryClient }) => searchFeed(queryClient).progress(event),
  // Progress belongs to the check that asked for it; the panel running it listens.
  'access:progress': () => undefined,
  'doctor:progress': () => undefined,
  // Started here, or by `rag-console eval` on the same data folder: listed with its progress.
  'eval:run-started': ({ run }, { queryClient }) => addRunningRun(queryClient, run),
  'eval:progress': (event, { queryClient }) => applyRunProgress(queryClient, event),
  'eval:run-finished': (event, { queryClient }) => applyRunFinished(queryClient, event),
  // Judged from Search, saved in the panel, imported, or edited by the CLI.
  'eval:sets-changed': ({ setId }, { queryClient }) => {
    void queryClient.invalidateQueries({ queryKey: evalKeys.sets() })
    void queryClient.invalidateQueries({ queryKey: evalKeys.set(setId) })
  },
  'auth:changed': (oauth, { queryClient }) => {
    // A sign-in this page started gets its authorization URL in the tab it opened.
    signInTabs.update(oauth)
    queryClient.setQueryData<ServerSummary[]>(serverKeys.list(), (list) =>
      list?.map((summary) => (summary.id === oauth.serverId ? { ...summary, oauth } : summary)),
    )
    // A list fetch already under way would bring the state from before the change.
    void queryClient.invalidateQueries({ queryKey: serverKeys.list() })
    // A server tried in the Workbench shows its sign-in there, and lists its tools once in.
    const tried = workbenchKeys.auth(oauth.serverId)
    queryClient.setQueryData(tried, (held: unknown) => (held === undefined ? undefined : oauth))
    void queryClient.invalidateQueries({ queryKey: tried })
    if (oauth.state === 'signed_in') {
      void queryClient.invalidateQueries({ queryKey: workbenchKeys.tools(oauth.serverId) })
    }
  },
  'discovery:missing': ({ server, sources }, { notify }) => {
    notify({
      tone: 'warn',
      message: `${server} no longer offers ${sources.join(', ')}, selected for this profile.`,
      detail: 'The selection is kept; it applies again if the server offers them later.',
    })
  },
}

/** Routes one event to its handler. */
export function applyCoreEvent<E extends AppEventName>(
  name: E,
  payload: EventMap[E],
  context: CoreEventContext,
): void {
  coreEventHandlers[name](payload, context)
}
