import type { SessionTokenInfo } from '#shared/ipc/secrets'
import type { ServerState, ServerSummary } from '#shared/model/server'
import { plural } from '../../lib/format'
import type { ConnectProgress } from './server-groups'

/**
 * The Servers panel's head and cards, worked out from the summaries: how many are shown, how
 * many are in each state, how far connecting has come, and each card's session tokens.
 */

/** The order the per-state counts are shown in: working servers first. */
export const STATE_ORDER: readonly ServerState[] = [
  'ready',
  'degraded',
  'connecting',
  'action_required',
  'down',
  'disabled',
]

/** How many servers are in each state, in {@link STATE_ORDER}; states none is in are left out. */
export function stateCounts(
  servers: readonly ServerSummary[],
): { state: ServerState; count: number }[] {
  const counts = new Map<ServerState, number>()
  for (const s of servers) counts.set(s.status.state, (counts.get(s.status.state) ?? 0) + 1)
  return STATE_ORDER.filter((state) => counts.has(state)).map((state) => ({
    state,
    count: counts.get(state) ?? 0,
  }))
}

/** "3 servers", or "1 of 3 servers shown" while a filter hides some. */
export function shownLine(shown: number, total: number): string {
  return shown === total ? plural(total, 'server') : `${shown} of ${plural(total, 'server')} shown`
}

/** How far the first connects have come. */
export function progressLine(progress: ConnectProgress): string {
  return progress.done
    ? `${progress.tried} of ${progress.total} connected or tried`
    : `Connecting ${progress.tried} of ${progress.total}…`
}

/** The names of the session tokens given for one server. */
export function tokenNamesOf(tokens: readonly SessionTokenInfo[], server: string): string[] {
  return tokens.filter((t) => t.server === server).map((t) => t.name)
}

/** The element id of a server's card. */
export const cardId = (server: string): string => `server-${encodeURIComponent(server)}`
