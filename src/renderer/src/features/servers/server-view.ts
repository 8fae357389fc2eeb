import type { ErrorInfo } from '#shared/errors'
import type { OAuthStatus } from '#shared/ipc/auth'
import type { DiscoveryResult, ServerDiscovery } from '#shared/model/operations'
import type { Resource } from '#shared/model/rag'
import type { RateLimitInfo, ServerStatus, ServerSummary } from '#shared/model/server'
import type { Tone } from '../../ui'

/** What a person can do about a server's problem, as a button on its card. */
export type Remedy = 'set-secrets' | 'reconnect' | 'enable' | 'show-log' | 'open-health'

/** A server's trouble in plain words: what is wrong, what to do, and a button for it. */
export interface Advice {
  tone: Tone
  /** What is wrong, naming the server. */
  problem: string
  /** What to do next. */
  next: string
  remedy?: Remedy
}

/** What to tell the user about a server, or null when it is fine. */
export function adviceFor(server: ServerSummary, now = Date.now()): Advice | null {
  const status = server.status
  const stdio = server.transport === 'stdio'
  switch (status.state) {
    case 'ready':
      return null
    case 'connecting':
      return status.attempt > 1
        ? {
            tone: 'info',
            problem: `Connecting to ${server.id} (attempt ${status.attempt}).`,
            next: 'Earlier attempts failed; it keeps retrying with a growing pause.',
          }
        : null
    case 'disabled':
      return {
        tone: 'neutral',
        problem: `${server.id} is disabled in rag-mcp.json: the console does not connect to it.`,
        next: 'Enable it to connect; the file is updated with its comments kept.',
        remedy: 'enable',
      }
    case 'action_required': {
      const missing = status.missingSecrets ?? []
      const env = status.missingEnv ?? []
      // Keychain secrets first (a button sets them); variables need a restart anyway.
      const alsoEnv = env.length
        ? ` Also set ${env.join(', ')} in the console’s environment, then restart it.`
        : ''
      if (missing.length > 0) {
        return {
          tone: 'warn',
          problem: `${server.id} needs ${quoted(missing)}, not set in the keychain.`,
          next: `Set the key in Config → Secrets; the server connects as soon as it is stored.${alsoEnv}`,
          remedy: 'set-secrets',
        }
      }
      const tokens = status.missingSessionTokens ?? []
      if (tokens.length > 0) {
        return {
          tone: 'warn',
          problem: `${server.id} needs the session token ${quoted(tokens)}, not given yet.`,
          next: `Give it in Config → Secrets; it is kept in memory for this session only and the server connects as soon as it is set.${alsoEnv}`,
          remedy: 'set-secrets',
        }
      }
      if (env.length > 0) {
        const one = env.length === 1
        return {
          tone: 'warn',
          problem: `${server.id} needs the environment variable${one ? '' : 's'} ${env.join(', ')}, which ${one ? 'is' : 'are'} not set in the console’s environment.`,
          next: `Set ${one ? 'it' : 'them'} in the environment the console was started from (e.g. export ${env[0]}=… before starting it), then restart the console: a running console does not see new variables.`,
        }
      }
      // The card's sign-in row says it, with the Sign in button.
      if (status.signInRequired) return null
      return {
        tone: 'warn',
        problem: sentence(status.lastError?.message ?? status.reason),
        next: unauthorized(status.lastError)
          ? 'Check or replace its key in Config → Secrets, then reconnect.'
          : 'Fix what is named above, then reconnect.',
        remedy: unauthorized(status.lastError) ? 'set-secrets' : 'reconnect',
      }
    }
    case 'degraded':
      return {
        tone: 'warn',
        problem: sentence(`${server.id} answers but is degraded: ${status.reason}`),
        next: 'Searches still go to it. Health shows which operation fails or is slow.',
        remedy: 'open-health',
      }
    case 'down': {
      // The pool's message already names the next step; the card adds only when and how to retry.
      const seconds =
        status.nextRetryAt !== undefined && status.nextRetryAt > now
          ? Math.max(1, Math.round((status.nextRetryAt - now) / 1000))
          : undefined
      return {
        tone: 'bad',
        problem: sentence(status.lastError.message),
        next:
          seconds === undefined
            ? 'Reconnect tries again now.'
            : `Next automatic retry in ${seconds} s; Reconnect tries now.`,
        remedy: unauthorized(status.lastError) ? 'set-secrets' : stdio ? 'show-log' : 'reconnect',
      }
    }
  }
}

const unauthorized = (error: ErrorInfo | undefined): boolean => error?.code === 'unauthorized'

const quoted = (names: readonly string[]): string => names.map((n) => `"${n}"`).join(', ')

const sentence = (text: string): string => (/[.!?]$/.test(text.trim()) ? text : `${text}.`)

/** The access a profile has to a source, as its auth badge says. */
export type SourceAccess = 'open' | 'action_required' | 'locked' | 'unavailable' | 'unknown'

/** A data source row: the discovered source and whether it is toggled on. */
export interface SourceRow {
  source: Resource & { visible: boolean }
  selected: boolean
  access: SourceAccess
  /** What is wrong with it, in words shown in its row. */
  problem?: string
  /** A capability source's session-only token: given in this session or not. */
  token?: 'set' | 'missing'
}

/**
 * The source rows of one server: the toggles the profile remembered win over what the last
 * discovery reported (a toggle lands before discovery runs again), and a source the profile
 * may not see is never selected. Access: `locked` when the profile's groups may not see it,
 * `unavailable` when discovery reported an error about it, `action_required` when it needs
 * credentials the server lacks, discovery was refused, or it is a capability source without a
 * session token (`tokens`: names of the server's session tokens; capability tokens are named
 * after their source), `unknown` while the server is not connected (nothing says it is open).
 */
export function sourceRows(
  discovery: ServerDiscovery | undefined,
  remembered: Record<string, boolean> | undefined,
  server: Pick<ServerSummary, 'status'>,
  tokens: readonly string[] = [],
): SourceRow[] {
  if (!discovery) return []
  const refused =
    discovery.error?.code === 'unauthorized' || server.status.state === 'action_required'
  const connected = server.status.state === 'ready' || server.status.state === 'degraded'
  return discovery.sources.map((source) => {
    const toggled = remembered?.[source.id]
    const selected = source.visible && (toggled ?? source.selected)
    const row: SourceRow = { source, selected, access: 'open' }
    if (source.authMode === 'capability') {
      row.token = tokens.includes(source.id) ? 'set' : 'missing'
    }
    if (!source.visible) row.access = 'locked'
    else if (source.error) {
      row.access = 'unavailable'
      // The server's own words are the short, specific part; the full message has the advice.
      const said = source.error.details?.serverMessage
      row.problem = typeof said === 'string' && said ? sentence(said) : source.error.message
    } else if (refused && source.authRequired) {
      row.access = 'action_required'
      row.problem =
        'The server refused this user, or needs credentials it does not have yet (see above).'
    } else if (row.token === 'missing') {
      row.access = 'action_required'
      row.problem = 'Needs a capability token: give one for this session only.'
    } else if (!connected) row.access = 'unknown'
    return row
  })
}

/** The toggles that turn every source the profile may see on (or off). */
export function selectAll(rows: readonly SourceRow[], on: boolean): Record<string, boolean> {
  return Object.fromEntries(rows.filter((r) => r.source.visible).map((r) => [r.source.id, on]))
}

/** A stdio server's command line as a shell would read it (arguments with spaces quoted). */
export function commandLine(command: string, args: readonly string[] = []): string {
  const quote = (arg: string): string =>
    arg === '' || /\s|"/.test(arg) ? JSON.stringify(arg) : arg
  return [command, ...args].map(quote).join(' ')
}

/** Where a server is reached, as its card shows it: its URL, else its command line. */
export function whereOf(
  server: Pick<ServerSummary, 'url' | 'command' | 'args'>,
): { label: 'URL' | 'Command'; text: string } | undefined {
  const text =
    server.url ??
    (server.command === undefined ? undefined : commandLine(server.command, server.args))
  return text ? { label: server.url ? 'URL' : 'Command', text } : undefined
}

/** Whether the console keeps a log for the server: it runs it (stdio, or a command given). */
export const hasLog = (server: Pick<ServerSummary, 'transport' | 'command'>): boolean =>
  server.transport === 'stdio' || server.command !== undefined

/** `12 ms / 40 ms` (p50 / p95), or a dash before the first measured call. */
export const latencyText = (latency: ServerSummary['latency']): string =>
  latency ? `${formatMs(latency.p50)} / ${formatMs(latency.p95)}` : '–'

/** The dialect badge: the family (`· auto` when detected), where it came from and why. */
export function dialectBadge(dialect: ServerSummary['dialect']): {
  text: string
  title: string
  tone: Tone
} {
  return {
    text: `${dialect.id ?? 'no dialect'}${dialect.source === 'detected' && dialect.id ? ' · auto' : ''}`,
    title: `${dialect.source === 'config' ? 'Set in config' : 'Detected'}: ${dialect.reason}`,
    tone: dialect.id ? 'info' : 'neutral',
  }
}

/** `850 µs`, `12 ms`, `1.25 s`. */
export function formatMs(ms: number): string {
  if (ms === 0) return '0 ms'
  if (ms < 1) return `${Math.round(ms * 1000)} µs`
  if (ms < 100) return `${Number(ms.toFixed(1))} ms`
  if (ms < 1000) return `${Math.round(ms)} ms`
  return `${Number((ms / 1000).toFixed(2))} s`
}

/** `42 / 100 left, resets 14:03:27` — what the server last said about its rate limit. */
export function describeRateLimit(info: RateLimitInfo | undefined): string | null {
  if (!info || (info.remaining === undefined && info.limit === undefined)) return null
  const left =
    info.remaining === undefined
      ? `limit ${info.limit}`
      : info.limit === undefined
        ? `${info.remaining} left`
        : `${info.remaining} / ${info.limit} left`
  if (info.reset === undefined) return left
  const resetMs = info.reset > 1e9 ? info.reset * 1000 : info.at + info.reset * 1000
  return `${left}, resets ${new Date(resetMs).toLocaleTimeString(undefined, { hour12: false })}`
}

/** `1,204 docs · 9,880 chunks`, or null when the server gave no counts. */
export function describeCounts(counts: Resource['counts']): string | null {
  if (!counts) return null
  const parts: string[] = []
  if (counts.docs !== undefined) parts.push(`${counts.docs.toLocaleString('en')} docs`)
  if (counts.chunks !== undefined) parts.push(`${counts.chunks.toLocaleString('en')} chunks`)
  return parts.length ? parts.join(' · ') : null
}

/**
 * A server's OAuth sign-in state: the one its summary carries, else "sign-in required" when its
 * status says the server asked for a sign-in.
 */
export function oauthOf(
  server: Pick<ServerSummary, 'id' | 'status' | 'oauth'>,
): OAuthStatus | undefined {
  if (server.oauth) return server.oauth
  return server.status.state === 'action_required' && server.status.signInRequired
    ? { serverId: server.id, state: 'sign_in_required' }
    : undefined
}

/**
 * Words for a server's status badge where the standard ones say too little: a server waiting
 * for an OAuth sign-in. Undefined keeps the standard words.
 */
export function statusLabel(status: ServerStatus): string | undefined {
  return status.state === 'action_required' && status.signInRequired
    ? 'sign-in required'
    : undefined
}

/**
 * Whether a server wants attention: anything but ready, disabled or a first connect, or one of
 * its sources asks for an action (`sourceTrouble`, see {@link serversWithSourceTrouble}).
 */
export function needsAttention(server: ServerSummary, sourceTrouble = false): boolean {
  const state = server.status.state
  return sourceTrouble || state === 'down' || state === 'degraded' || state === 'action_required'
}

/**
 * The servers one of whose sources the profile may see needs an action first (credentials the
 * server lacks, a capability token not given): their source rows say "action required".
 */
export function serversWithSourceTrouble(
  discovery: DiscoveryResult | undefined,
  summaries: readonly ServerSummary[],
  toggles: Record<string, Record<string, boolean>> | undefined,
  sessionTokens: readonly { server: string; name: string }[],
): Set<string> {
  const trouble = new Set<string>()
  const byId = new Map(summaries.map((s) => [s.id, s]))
  for (const entry of discovery?.servers ?? []) {
    const server = byId.get(entry.server)
    if (!server) continue
    const tokens = sessionTokens.filter((t) => t.server === entry.server).map((t) => t.name)
    const rows = sourceRows(entry, toggles?.[entry.server], server, tokens)
    if (rows.some((row) => row.access === 'action_required')) trouble.add(entry.server)
  }
  return trouble
}
