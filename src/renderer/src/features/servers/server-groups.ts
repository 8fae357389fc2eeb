import type { ServerState, ServerSummary } from '#shared/model/server'
import { STATUSES } from '../../ui'
import { needsAttention } from './server-view'

/** How a long list of servers is grouped: not at all, by their `groups` entry, or by status. */
export type GroupBy = 'none' | 'groups' | 'status'

export const GROUP_BY_OPTIONS: { value: GroupBy; label: string }[] = [
  { value: 'none', label: 'No grouping' },
  { value: 'groups', label: 'By groups' },
  { value: 'status', label: 'By status' },
]

/** One group of items and how many of them want attention. */
export interface ItemGroup<T> {
  key: string
  label: string
  items: T[]
  attention: number
}

/** Trouble first: a long list grouped by status opens on what needs doing. */
const STATUS_ORDER: ServerState[] = [
  'down',
  'action_required',
  'degraded',
  'connecting',
  'ready',
  'disabled',
]

/** The words a filter matches a server by: id, description, where, transport, family, status, groups. */
function haystack(server: ServerSummary): string {
  return [
    server.id,
    server.description,
    server.url,
    server.command,
    server.transport,
    server.dialect.id ?? 'no dialect',
    STATUSES[server.status.state].label,
    server.serverInfo?.name,
    ...server.groups,
  ]
    .filter(Boolean)
    .join('\n')
    .toLowerCase()
}

/**
 * Whether a server matches the filter text: every word of it must appear in the server's id,
 * description, URL or command, transport, dialect, status or groups (case-insensitive).
 */
export function serverMatches(server: ServerSummary, filter: string): boolean {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean)
  if (words.length === 0) return true
  const text = haystack(server)
  return words.every((word) => text.includes(word))
}

const NONE: ReadonlySet<string> = new Set()

export interface ServerFilter {
  text: string
  onlyAttention: boolean
}

/**
 * The items whose server passes the filter; `summaryOf` finds an item's server (an item whose
 * server is unknown matches by its id alone and never needs attention). `sourceTrouble`: the
 * servers a source of which needs an action (they need attention whatever their status).
 */
export function filterItems<T>(
  items: readonly T[],
  filter: ServerFilter,
  idOf: (item: T) => string,
  summaryOf: (id: string) => ServerSummary | undefined,
  sourceTrouble: ReadonlySet<string> = NONE,
): T[] {
  const words = filter.text.trim()
  if (!words && !filter.onlyAttention) return [...items]
  return items.filter((item) => {
    const server = summaryOf(idOf(item))
    if (filter.onlyAttention && !(server && needsAttention(server, sourceTrouble.has(server.id))))
      return false
    if (!words) return true
    return server
      ? serverMatches(server, words)
      : idOf(item).toLowerCase().includes(words.toLowerCase())
  })
}

/** The group key and label of a server: its `groups` as written (sorted), or its status. */
function groupOf(server: ServerSummary | undefined, by: GroupBy): { key: string; label: string } {
  if (by === 'status') {
    const state = server?.status.state ?? 'connecting'
    return { key: state, label: STATUSES[state].label }
  }
  const groups = [...(server?.groups ?? [])].sort()
  return groups.length === 0
    ? { key: '', label: 'No groups' }
    : { key: groups.join(','), label: groups.join(', ') }
}

/**
 * Groups items by their server's `groups` (one group per distinct set, so a server is listed
 * once) or status; `none` gives one group holding everything. Groups are sorted by label, "No
 * groups" last; status groups put trouble first. Items keep their order inside a group.
 */
export function groupItems<T>(
  items: readonly T[],
  by: GroupBy,
  idOf: (item: T) => string,
  summaryOf: (id: string) => ServerSummary | undefined,
  sourceTrouble: ReadonlySet<string> = NONE,
): ItemGroup<T>[] {
  const groups = new Map<string, ItemGroup<T>>()
  for (const item of items) {
    const server = summaryOf(idOf(item))
    const { key, label } =
      by === 'none' ? { key: 'all', label: 'All servers' } : groupOf(server, by)
    let group = groups.get(key)
    if (!group) groups.set(key, (group = { key, label, items: [], attention: 0 }))
    group.items.push(item)
    if (server && needsAttention(server, sourceTrouble.has(server.id))) group.attention++
  }
  const rank = (group: ItemGroup<T>): number =>
    by === 'status' ? STATUS_ORDER.indexOf(group.key as ServerState) : group.key === '' ? 1 : 0
  return [...groups.values()].sort((a, b) => rank(a) - rank(b) || a.label.localeCompare(b.label))
}

/** How far connecting the registry got: enabled servers tried at least once, of all enabled. */
export interface ConnectProgress {
  tried: number
  total: number
  done: boolean
}

export function connectProgress(servers: readonly ServerSummary[]): ConnectProgress {
  let tried = 0
  let total = 0
  for (const server of servers) {
    if (!server.enabled) continue
    total++
    const status = server.status
    // A retry (attempt 2 and on) was tried already; only a first connect is still pending.
    if (status.state !== 'connecting' || status.attempt > 1) tried++
  }
  return { tried, total, done: tried === total }
}
