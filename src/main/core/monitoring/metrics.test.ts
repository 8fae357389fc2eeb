import { afterEach, expect, it } from 'vitest'
import type { OAuthStatus } from '#shared/ipc/auth'
import type { PoolServerStatus } from '#shared/ipc/servers'
import type { ServerHealth } from '#shared/model/server'
import { EventBus } from '../events'
import { CallObservers } from '../pool/call-observer'
import { ConsoleMetrics } from './metrics'

/** The exposition as a scraper sees it, built from call records, events and pool state. */
const events = new EventBus()
const calls = new CallObservers()
let statuses: PoolServerStatus[] = []
let health: ServerHealth[] = []
let oauth: OAuthStatus[] = []
const rounds: { lastAt: number | undefined; startedAt: number; intervalMs: number } = {
  lastAt: undefined,
  startedAt: 1_699_999_990_000,
  intervalMs: 15_000,
}
const metrics = new ConsoleMetrics({
  calls,
  events,
  statuses: () => statuses,
  health: () => health,
  oauth: async () => oauth,
  rounds,
  now: () => 1_700_000_000_000,
})

afterEach(() => {
  statuses = []
  health = []
  oauth = []
})

const text = async (): Promise<string> => (await metrics.exposition()).text
const reload = (diff: { changed?: string[]; removed?: string[] }) =>
  events.emit('registry:updated', {
    added: [],
    unchanged: [],
    changed: diff.changed ?? [],
    removed: diff.removed ?? [],
    at: 1_700_000_000_000,
    durationMs: 1,
    source: { kind: 'file', files: [], label: 'test' },
    trigger: 'watch',
  })
const canary = (server: string, name: string, passed: boolean) =>
  metrics.canary({ server, canary: name, passed, failures: [], hits: 1, latencyMs: 20, at: 0 })

it('counts calls by outcome and observes their latency', async () => {
  const record = {
    server: 'kb',
    operation: 'search',
    method: 'tools/call',
    transport: 'http' as const,
    endedAt: 0,
    traffic: 'user' as const,
  }
  calls.emit({ ...record, ms: 12 })
  calls.emit({ ...record, ms: 40, code: 'timeout' })
  calls.emit({ ...record, operation: 'doctor', ms: 3, traffic: 'diagnostic' })
  const exposition = await text()
  expect(exposition).toContain(
    'rag_console_calls_total{server="kb",operation="search",outcome="ok",traffic="user"} 1',
  )
  expect(exposition).toContain(
    'rag_console_calls_total{server="kb",operation="search",outcome="timeout",traffic="user"} 1',
  )
  expect(exposition).toContain(
    'rag_console_calls_total{server="kb",operation="doctor",outcome="ok",traffic="diagnostic"} 1',
  )
  expect(exposition).toContain(
    'rag_console_call_duration_seconds_count{server="kb",operation="search",traffic="user"} 2',
  )
})

it('reads up, state and rate-limit headroom from the pool at scrape time', async () => {
  statuses = [
    { server: 'a', status: { state: 'ready', since: 0 } },
    { server: 'b', status: { state: 'action_required', since: 0 } as PoolServerStatus['status'] },
  ]
  health = [{ server: 'a', rateLimit: { limit: 60, remaining: 7, at: 0 } } as ServerHealth]
  const exposition = await text()
  expect(exposition).toContain('rag_console_server_up{server="a"} 1')
  expect(exposition).toContain('rag_console_server_up{server="b"} 0')
  expect(exposition).toContain('rag_console_server_state{server="b",state="action_required"} 1')
  expect(exposition).toContain('rag_console_rate_limit_remaining{server="a"} 7')
  expect(exposition).toContain('rag_console_rate_limit_limit{server="a"} 60')
  statuses = []
  expect(await text()).not.toContain('rag_console_server_up{server="a"}')
})

it('drops the canary verdicts of a server whose entry changed or left, keeping the others', async () => {
  canary('kb', 'old name', false)
  canary('wiki', 'pto', true)
  canary('gone', 'x', false)
  reload({ changed: ['kb'], removed: ['gone'] })
  const exposition = await text()
  expect(exposition).not.toContain('rag_console_canary_passed{server="kb"')
  expect(exposition).not.toContain('rag_console_canary_passed{server="gone"')
  expect(exposition).toContain('rag_console_canary_passed{server="wiki",canary="pto"} 1')
  expect(exposition).toContain('rag_console_registry_reloads_total{outcome="applied"} 1')
  expect(exposition).toContain('rag_console_registry_last_reload_success 1')
})

it('tells which OAuth sign-ins hold, and when their access tokens expire', async () => {
  oauth = [
    { serverId: 'plain', state: 'none' },
    { serverId: 'crm', state: 'signed_in', expiresAt: 1_700_000_600_000 },
    { serverId: 'stale', state: 'signed_in', expiresAt: 1_699_999_000_000 },
    { serverId: 'wiki', state: 'sign_in_required' },
    { serverId: 'locked', state: 'error' },
    { serverId: 'forever', state: 'signed_in' },
  ]
  const exposition = await text()
  expect(exposition).not.toContain('server="plain"')
  expect(exposition).toContain('rag_console_oauth_signed_in{server="crm"} 1')
  // Expired and not renewed: as good as signed out.
  expect(exposition).toContain('rag_console_oauth_signed_in{server="stale"} 0')
  expect(exposition).toContain('rag_console_oauth_signed_in{server="wiki"} 0')
  expect(exposition).toContain('rag_console_oauth_signed_in{server="locked"} 0')
  expect(exposition).toContain('rag_console_oauth_signed_in{server="forever"} 1')
  expect(exposition).toContain(
    'rag_console_oauth_token_expiry_timestamp_seconds{server="crm"} 1700000600',
  )
  expect(exposition).not.toContain(
    'rag_console_oauth_token_expiry_timestamp_seconds{server="forever"}',
  )
})

it("shows the monitor's period and the end of its last round, its start until then", async () => {
  expect(await text()).toContain('rag_console_monitor_interval_seconds 15')
  expect(await text()).toContain('rag_console_monitor_last_round_timestamp_seconds 1699999990')
  rounds.lastAt = 1_700_000_000_500
  expect(await text()).toContain('rag_console_monitor_last_round_timestamp_seconds 1700000000.5')
})
