import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { EventName } from '#shared/ipc/events'
import { fixtureEntry, startCore, whenState, type LiveCore } from '#test/support/core/live'

/**
 * What a canary run tells the pages, against a server whose hits are large (20 hits of 20 kB
 * each): the Health views show verdicts, counts and latency, never the hits themselves.
 */
let live: LiveCore

beforeAll(async () => {
  live = await startCore(
    {
      big: fixtureEntry(['--name', 'big', '--hits', '20', '--chunk-size', '20000'], {
        canaries: [{ name: 'vpn', query: 'vpn', expect: { minHits: 5 } }],
      }),
    },
    // Canaries only when told (no run at start), so the test sees the whole run.
    { monitor: { canaryIntervalMs: 0 } },
  )
  await whenState(live.core, ['big'])
})

afterAll(async () => {
  await live?.close()
})

describe('a canary run’s events', () => {
  it('carry no hits and no raw payloads, only what the Health views show', async () => {
    const sent: { name: EventName; json: string }[] = []
    // The protocol log is opt-in per page (only a page showing it gets it): not a canary report.
    const stop = live.core.events.onAny((name, payload) => {
      if (name !== 'workbench:protocol') sent.push({ name, json: JSON.stringify(payload) })
    })
    const reports = await live.core.monitoring!.canaries!.runAll('schedule')
    stop()
    expect(reports).toMatchObject([{ server: 'big', canary: 'vpn', passed: true, hits: 10 }])
    expect(sent.filter((event) => event.json.includes('"raw"')).map((e) => e.name)).toEqual([])
    expect(sent.filter((event) => event.json.length > 2_000).map((e) => e.name)).toEqual([])
  })
})
