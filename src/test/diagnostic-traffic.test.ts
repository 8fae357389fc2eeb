import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { RAG_SEARCH_API_KEY } from '#demo/keys'
import { OWN_DOC_HOST, demoScript, startDemo, type DemoProcess } from './support/demo/programs'
import { ConsoleMetrics } from '#core/monitoring/metrics'
import { startCore, type LiveCore } from './support/core/live'
import { demoProfile } from './support/demo/profiles'

/**
 * The console's own diagnostics are not the servers' failures: after Doctor (whose negative
 * probes ask for errors on purpose) has passed two demo servers, Health shows no failure, the
 * user-traffic series of /metrics count none (so the README's error-rate alert stays quiet), and
 * the audit lines of the probes that got the error they asked for are not failures.
 */

const ALICE = demoProfile('alice@example.com', 'alice', 'Alice')

let ragSearch: DemoProcess
let live: LiveCore
let metrics: ConsoleMetrics

beforeAll(async () => {
  ragSearch = await startDemo([
    'rag-search',
    '--port',
    '0',
    '--api-key',
    RAG_SEARCH_API_KEY,
    ...OWN_DOC_HOST,
  ])
  live = await startCore(
    {
      knowledgeSearch: {
        url: ragSearch.url,
        headers: { Authorization: 'Bearer ${env:DIAG_KEY}' },
        dialect: 'rag-search',
      },
      companyDocs: {
        transport: 'stdio',
        command: process.execPath,
        args: [demoScript(), 'rag-tools-v1', '--stdio', '--doc-host', 'http://127.0.0.1:0'],
      },
    },
    { env: { DIAG_KEY: RAG_SEARCH_API_KEY } },
  )
  live.core.settings.saveProfile(ALICE)
  live.core.settings.setActive(ALICE.id)
  metrics = new ConsoleMetrics({
    calls: live.core.calls,
    events: live.core.events,
    statuses: () => live.core.pool.statuses(),
    health: () => live.core.pool.health(),
  })
  const run = await live.core.services.doctor.run({ servers: ['knowledgeSearch', 'companyDocs'] })
  for (const report of run.servers) {
    expect(report.checks.filter((c) => c.status === 'fail').map((c) => c.id)).toEqual([])
  }
  await live.core.services.idle()
})

afterAll(async () => {
  metrics?.dispose()
  await live?.close()
  await ragSearch?.stop()
})

/** `name{labels} value` lines of the exposition, as label maps with their value. */
async function series(name: string): Promise<{ labels: Record<string, string>; value: number }[]> {
  const { text } = await metrics.exposition()
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`))
    .map((line) => {
      const [, body, value] = /^[^{]+\{(.*)\} (\S+)$/.exec(line)!
      const labels = Object.fromEntries(
        [...body!.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]),
      )
      return { labels, value: Number(value) }
    })
}

describe('Doctor’s traffic', () => {
  it('leaves Health without failures: the probes that expect an error are not failures', () => {
    for (const server of ['knowledgeSearch', 'companyDocs']) {
      const health = live.core.pool.health().find((h) => h.server === server)!
      expect(health.status.state).toBe('ready')
      expect(health.overall.errors).toEqual({})
      expect(health.overall.errorRate).toBe(0)
      expect(health.overall.lastError).toBeUndefined()
      // Kept apart: Doctor's calls are its own row, out of the server's overall figures.
      const doctor = health.operations.find((o) => o.operation === 'doctor')!
      expect(doctor.calls).toBeGreaterThan(3)
      expect(doctor.errors).toEqual({})
      expect(health.overall.calls).toBe(
        health.operations
          .filter((o) => o.operation !== 'doctor')
          .reduce((sum, o) => sum + o.calls, 0),
      )
    }
  })

  it('is labelled traffic="diagnostic" in /metrics, and no user-traffic call failed', async () => {
    const calls = await series('rag_console_calls_total')
    const doctor = calls.filter((s) => s.labels.operation === 'doctor')
    expect(doctor.length).toBeGreaterThan(0)
    expect(doctor.every((s) => s.labels.traffic === 'diagnostic')).toBe(true)
    expect(doctor.every((s) => s.labels.outcome === 'ok')).toBe(true)
    // The README's alert: sum(rate(calls{traffic="user",outcome!="ok"})) / sum(rate(calls{traffic="user"})).
    const userFailures = calls.filter(
      (s) => s.labels.traffic === 'user' && s.labels.outcome !== 'ok' && s.value > 0,
    )
    expect(userFailures).toEqual([])
    const durations = await series('rag_console_call_duration_seconds_count')
    expect(durations.filter((s) => s.labels.operation === 'doctor')[0]?.labels.traffic).toBe(
      'diagnostic',
    )
  })

  it('audits a probe that got the error it asked for as such, not as a failure', () => {
    const unknown = live
      .auditLines()
      .filter((line) => line.operation === 'doctor' && line.tool === 'doctor/no-such-method')
    expect(unknown.length).toBe(2)
    for (const line of unknown) {
      expect(line).toMatchObject({ outcome: 'ok', expectedError: expect.any(String) })
    }
    const failed = live
      .auditLines()
      .filter((line) => line.operation === 'doctor' && line.outcome === 'error')
    expect(failed).toEqual([])
  })
})
