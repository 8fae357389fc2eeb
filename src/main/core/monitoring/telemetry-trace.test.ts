import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  attributesOf,
  startOtlpReceiver,
  type OtlpReceiver,
} from '#test/support/servers/otlp-receiver'
import { fixtureEntry, startCore, whenState, type LiveCore } from '#test/support/core/live'
import { waitFor } from '#test/support/process/wait-for'

/**
 * The trace of one search, as an OTLP backend receives it from the app (the core with its
 * hosts' monitoring): a root span for the search and, under it, one CLIENT span per server call
 * with the server, operation and outcome. Received by the loopback OTLP/HTTP receiver: neither
 * the npm registry nor Debian's has an OpenTelemetry Collector or Jaeger to run here.
 */
let receiver: OtlpReceiver
let live: LiveCore
let otel: Record<string, string>

beforeAll(async () => {
  receiver = await startOtlpReceiver()
  // The exporters read the process's environment, as in the app; the core checks its own copy.
  otel = {
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.endpoint}/v1/traces`,
    OTEL_BSP_SCHEDULE_DELAY: '100',
  }
  Object.assign(process.env, otel)
  live = await startCore(
    {
      kb: fixtureEntry(['--name', 'kb']),
      wiki: fixtureEntry(['--name', 'wiki']),
    },
    {
      monitor: true,
      env: otel,
    },
  )
  await whenState(live.core, ['kb', 'wiki'])
})

afterAll(async () => {
  for (const name of Object.keys(otel ?? {})) delete process.env[name]
  await live?.close()
  await receiver?.close()
})

it('puts every server call of one search under that search’s span', async () => {
  await live.core.services.search.run({
    searchId: 'traced',
    query: 'vpn',
    selection: { kb: [], wiki: [] },
  })
  const root = await waitFor(() => receiver.spans.find((span) => span.name === 'search'))
  expect(root.parentSpanId || undefined).toBeUndefined()
  expect(attributesOf(root)).toMatchObject({ 'rag.operation': 'search', 'rag.outcome': 'ok' })
  await waitFor(
    () => receiver.spans.filter((span) => span.parentSpanId === root.spanId).length >= 2,
  )
  const children = receiver.spans.filter((span) => span.parentSpanId === root.spanId)
  expect(children.every((span) => span.traceId === root.traceId)).toBe(true)
  expect(
    children
      .map((span) => {
        const a = attributesOf(span)
        return `${span.kind} ${span.name}: ${a['rag.server']} ${a['rag.operation']} ${a['rag.outcome']}`
      })
      .sort(),
  ).toEqual(['3 tools/call kb: kb search ok', '3 tools/call wiki: wiki search ok'])
  // The children lie within the search.
  for (const span of children) {
    expect(BigInt(span.startTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(root.startTimeUnixNano))
    expect(BigInt(span.endTimeUnixNano)).toBeLessThanOrEqual(BigInt(root.endTimeUnixNano))
  }
})

it('leaves calls outside any operation (connects, probes) as traces of their own', () => {
  const connects = receiver.spans.filter(
    (span) => attributesOf(span)['rag.operation'] === 'connect',
  )
  expect(connects.length).toBeGreaterThan(0)
  expect(connects.every((span) => !span.parentSpanId)).toBe(true)
})
