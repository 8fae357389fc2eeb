import type { InvokeRequest } from '#shared/ipc/contract'
import type { AuditEntry } from '#shared/model/operations'

/** How far back the table looks. */
export const PERIODS = {
  all: { label: 'Any time', ms: undefined },
  '15m': { label: 'Last 15 minutes', ms: 15 * 60_000 },
  '1h': { label: 'Last hour', ms: 60 * 60_000 },
  '24h': { label: 'Last 24 hours', ms: 24 * 60 * 60_000 },
  '7d': { label: 'Last 7 days', ms: 7 * 24 * 60 * 60_000 },
} as const satisfies Record<string, { label: string; ms: number | undefined }>

export type Period = keyof typeof PERIODS

/** The filters as the toolbar holds them; an empty string means "any". */
export interface AuditFilterState {
  server: string
  user: string
  operation: string
  outcome: '' | AuditEntry['outcome']
  /** Who started the calls: anyone, a person, or the console by itself. */
  trigger: '' | 'person' | 'automatic'
  period: Period
}

export const NO_FILTER: AuditFilterState = {
  server: '',
  user: '',
  operation: '',
  outcome: '',
  trigger: '',
  period: 'all',
}

/** Rows the table asks for at most (newest first). */
export const AUDIT_LIMIT = 5000

export type AuditRequest = NonNullable<InvokeRequest<'audit:list'>>

/** The `audit:list` / `audit:export` filter for these choices, `since` taken from `now`. */
export function auditRequest(state: AuditFilterState, now: number): AuditRequest {
  const request: AuditRequest = {}
  if (state.server) request.server = state.server
  if (state.user) request.user = state.user
  if (state.operation) request.operation = state.operation
  if (state.outcome) request.outcome = state.outcome
  if (state.trigger) request.automatic = state.trigger === 'automatic'
  const ms = PERIODS[state.period].ms
  if (ms !== undefined) request.since = new Date(now - ms).toISOString()
  return request
}

export function isFiltered(state: AuditFilterState): boolean {
  return (Object.keys(NO_FILTER) as (keyof AuditFilterState)[]).some(
    (key) => state[key] !== NO_FILTER[key],
  )
}

/** The values each filterable column holds in the log. */
export interface AuditFacets {
  servers: string[]
  users: string[]
  operations: string[]
}

/** The distinct values of each filterable column, sorted, for the filter menus. */
export function auditFacets(entries: readonly AuditEntry[]): AuditFacets {
  const servers = new Set<string>()
  const users = new Set<string>()
  const operations = new Set<string>()
  for (const entry of entries) {
    servers.add(entry.server)
    users.add(entry.user)
    operations.add(entry.operation)
  }
  const sorted = (values: Set<string>): string[] => [...values].sort((a, b) => a.localeCompare(b))
  return { servers: sorted(servers), users: sorted(users), operations: sorted(operations) }
}

/**
 * A stable key per line (lines carry no id): its fields, and a counter for identical lines, so
 * a refresh that adds new lines on top keeps the rows already shown.
 */
export function auditRowKeys(entries: readonly AuditEntry[]): Map<AuditEntry, string> {
  const keys = new Map<AuditEntry, string>()
  const repeats = new Map<string, number>()
  // Oldest first, so a new line on top never shifts the keys of the lines below it.
  for (let i = entries.length - 1; i >= 0; i -= 1) {
    const entry = entries[i]!
    const base = [
      entry.at,
      entry.user,
      entry.server,
      entry.operation,
      entry.tool ?? '',
      entry.latencyMs,
    ].join('|')
    const n = repeats.get(base) ?? 0
    repeats.set(base, n + 1)
    keys.set(entry, n === 0 ? base : `${base}#${n}`)
  }
  return keys
}
