import { describe, expect, it } from 'vitest'
import { builtFile } from '#test/support/process/built'
import { inspectorUrl, isInspectorNotice } from './inspector'
import {
  downReasonsOf,
  heapGrowth,
  ProbeFailureReasons,
  heapSlopePerHour,
  measureMonitor,
  probeChecks,
  sampleValue,
  upCount,
} from './monitor'

const exposition = [
  '# HELP rag_console_server_up 1 when the server is connected',
  '# TYPE rag_console_server_up gauge',
  'rag_console_server_up{server="a"} 1',
  'rag_console_server_up{server="b"} 0',
  'rag_console_server_up{server="c"} 1',
  'rag_console_process_cpu_seconds_total 12.5',
  'rag_console_nodejs_heap_size_used_bytes 1048576',
].join('\n')

describe('reading the monitor’s own metrics', () => {
  it('reads a sample by name, with or without labels', () => {
    expect(sampleValue(exposition, 'rag_console_process_cpu_seconds_total')).toBe(12.5)
    expect(sampleValue(exposition, 'rag_console_nodejs_heap_size_used_bytes')).toBe(1048576)
    expect(sampleValue(exposition, 'rag_console_missing')).toBeUndefined()
  })

  it('counts the servers that are up', () => {
    expect(upCount(exposition)).toBe(2)
  })
})

describe('judging probes', () => {
  const verdicts = (probes: { ok: number; failed: number; timedOut: number }, quick: boolean) =>
    Object.fromEntries(
      probeChecks({ probes, upServers: 3, failureCodes: {}, downReasons: [] }, 3, quick).map(
        (c) => [c.name, c.pass],
      ),
    )

  it('fails a probe that errs, in either run', () => {
    for (const quick of [true, false]) {
      expect(verdicts({ ok: 9, failed: 1, timedOut: 0 }, quick)['probe-failures']).toBe(false)
    }
    expect(verdicts({ ok: 10, failed: 0, timedOut: 0 }, true)['probe-failures']).toBe(true)
  })

  it('reports a probe that timed out in the quick run (a loaded machine), judges it in the full', () => {
    const quick = verdicts({ ok: 9, failed: 0, timedOut: 1 }, true)
    expect(quick['probe-failures']).toBe(true)
    expect(quick['probe-timeouts']).toBeUndefined()
    expect(verdicts({ ok: 9, failed: 0, timedOut: 1 }, false)['probe-timeouts']).toBe(false)
  })

  it('names the codes of the probes that failed, and why their servers went down', () => {
    const [errors] = probeChecks(
      {
        probes: { ok: 7, failed: 3, timedOut: 0 },
        upServers: 3,
        failureCodes: { unreachable: 3 },
        downReasons: [],
      },
      3,
      true,
    )
    expect(errors?.description).toMatch(/: unreachable 3$/)
    const [explained] = probeChecks(
      {
        probes: { ok: 7, failed: 3, timedOut: 0 },
        upServers: 3,
        failureCodes: { unreachable: 3 },
        downReasons: ['cannot reach server S at http://127.0.0.1:PORT/mcp: connection reset'],
      },
      3,
      true,
    )
    const [passed] = probeChecks(
      {
        probes: { ok: 10, failed: 0, timedOut: 0 },
        upServers: 3,
        failureCodes: {},
        downReasons: ['server S did not answer connect'],
      },
      3,
      true,
    )
    // A server that was slow to connect at the start is no probe's failure.
    expect(passed?.description).not.toMatch(/went down/)
    expect(explained?.description).toMatch(
      /: unreachable 3 \(servers went down: "cannot reach server S at http:\/\/127\.0\.0\.1:PORT\/mcp: connection reset"\)$/,
    )
  })

  it('keeps one reason per kind of failure, whatever server or port it came from', () => {
    const reasons = downReasonsOf([
      {
        server: 'rs-17',
        message: 'cannot reach server rs-17 at http://127.0.0.1:40125/mcp: reset',
      },
      { server: 'rs-3', message: 'cannot reach server rs-3 at http://127.0.0.1:39001/mcp: reset' },
      { server: 'vtex-9', message: 'server vtex-9 closed the connection during ping' },
    ])
    expect(reasons).toEqual([
      'cannot reach server S at http://127.0.0.1:PORT/mcp: reset',
      'server S closed the connection during ping',
    ])
  })

  it('names why a failed probe’s server went down, not a slow connect at the start', () => {
    const reasons = new ProbeFailureReasons()
    // Down at the start, then up: no probe of it failed.
    reasons.status('a', 'down', 'server a did not answer connect')
    reasons.status('a', 'ready', undefined)
    // The failed probe's line before its server's `down` line, and after it.
    reasons.failedProbe('b')
    reasons.status('b', 'down', 'cannot reach server b at http://127.0.0.1:40125/mcp: reset')
    reasons.status('c', 'down', 'server c closed the connection during ping')
    reasons.failedProbe('c')
    expect(reasons.reasons()).toEqual([
      'cannot reach server S at http://127.0.0.1:PORT/mcp: reset',
      'server S closed the connection during ping',
    ])
  })

  it('fails when a server never came up', () => {
    const checks = probeChecks(
      {
        probes: { ok: 9, failed: 0, timedOut: 0 },
        upServers: 2,
        failureCodes: {},
        downReasons: [],
      },
      3,
      true,
    )
    expect(checks.find((c) => c.name === 'probe-failures')?.pass).toBe(false)
  })
})

describe('the monitor’s inspector', () => {
  it('finds the DevTools URL and tells the inspector’s own lines from the program’s', () => {
    const url = 'ws://127.0.0.1:40123/0f1e2d3c-aaaa-bbbb-cccc-111122223333'
    expect(inspectorUrl(`Debugger listening on ${url}`)).toBe(url)
    expect(inspectorUrl('warning: server kb is slow')).toBeUndefined()
    expect(isInspectorNotice('Debugger attached.')).toBe(true)
    expect(isInspectorNotice('For help, see: https://nodejs.org/en/docs/inspector')).toBe(true)
    expect(isInspectorNotice('warning: server kb is slow')).toBe(false)
  })
})

describe('judging memory', () => {
  const flat = [0, 1, 2, 3, 4, 5].map((i) => ({ atMs: i * 600_000, heapMB: 30, rssMB: 100 }))
  const leaking = flat.map((s, i) => ({ ...s, heapMB: 30 + i }))

  it('finds no slope and no growth in a flat heap', () => {
    expect(heapSlopePerHour(flat)).toBe(0)
    expect(heapGrowth(flat)).toBe(0)
  })

  it('measures a heap that grows 1 MB every 10 minutes', () => {
    expect(heapSlopePerHour(leaking)).toBeCloseTo(6)
    expect(heapGrowth(leaking)).toBe(4)
  })

  it('leaves the warm-up samples out of the growth', () => {
    const warming = flat.map((s, i) => ({ ...s, heapMB: i < 2 ? 10 : 30 }))
    expect(heapGrowth(warming)).toBe(20)
    expect(heapGrowth(warming, 1_200_000)).toBe(0)
  })
})

it('measures a real monitor over a few demo servers, every one up and no probe failing', async () => {
  const m = await measureMonitor(
    { servers: 4, intervalMs: 300, durationMs: 1_500, sampleEveryMs: 500, warmupMs: 0 },
    { demo: builtFile('main/demo.js'), cli: builtFile('main/cli.js') },
  )
  expect(m.upServers).toBe(4)
  expect(m.probes.failed).toBe(0)
  expect(m.probes.ok).toBeGreaterThan(0)
  expect(m.cpuPercent).toBeGreaterThan(0)
  expect(m.samples.length).toBeGreaterThanOrEqual(3)
  for (const sample of m.samples) expect(sample.heapMB).toBeGreaterThan(1)
})
