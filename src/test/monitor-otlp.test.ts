import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { eventually, OWN_DOC_HOST, startDemo, type DemoProcess } from './support/demo/programs'
import { startMonitor, type MonitorProcess } from './support/cli/monitor-process'
import { cliHome, writeRegistry } from './support/cli/run-cli'
import { attributesOf, startOtlpReceiver, type OtlpReceiver } from './support/servers/otlp-receiver'

/**
 * OTLP export of `rag-console monitor` to a loopback OTLP/HTTP receiver, configured only by the
 * standard OTEL_EXPORTER_OTLP_ENDPOINT: one span per server call with its attributes, and no
 * credential or query text anywhere in what is sent.
 */
const KEY = `otlp-canary-${randomBytes(16).toString('hex')}`
const WRONG = `otlp-wrong-${randomBytes(16).toString('hex')}`
const QUERY = `zebra quartz ${randomBytes(6).toString('hex')}`
let home: string
let ragSearch: DemoProcess
let receiver: OtlpReceiver
let monitor: MonitorProcess
let exitCode: number | null
let scraped: string

beforeAll(async () => {
  home = cliHome()
  receiver = await startOtlpReceiver()
  ragSearch = await startDemo(['rag-search', '--port', '0', '--api-key', KEY, ...OWN_DOC_HOST])
  const config = writeRegistry(home, {
    knowledgeSearch: {
      url: ragSearch.url,
      headers: { Authorization: 'Bearer ${env:OTLP_TEST_KEY}' },
      canaries: [{ name: 'conduct', query: QUERY, expect: { minHits: 0 } }],
    },
    locked: {
      url: ragSearch.url,
      headers: { Authorization: 'Bearer ${env:OTLP_TEST_WRONG}' },
      dialect: 'rag-search',
      canaries: [{ name: 'refused', query: QUERY }],
    },
  })
  monitor = await startMonitor(['--config', config, '--interval', '1s'], home, {
    OTLP_TEST_KEY: KEY,
    OTLP_TEST_WRONG: WRONG,
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_BSP_SCHEDULE_DELAY: '200',
    OTEL_METRIC_EXPORT_INTERVAL: '500',
  })
  await monitor.line((l) => l.event === 'canary' && l.server === 'locked')
  await eventually(async () => (receiver.spans.length > 0 ? true : undefined))
  scraped = await (await fetch(monitor.metricsUrl)).text()
  exitCode = await monitor.stop()
})

afterAll(async () => {
  await monitor?.stop()
  await ragSearch?.stop()
  await receiver?.close()
  rmSync(home, { recursive: true, force: true })
})

it('says it exports, and flushes on SIGTERM before exiting 0', () => {
  expect(monitor.lines.find((l) => l.event === 'metrics')).toMatchObject({ otlp: true })
  expect(exitCode).toBe(0)
  const metrics = receiver.bodies.filter((b) => b.path === '/v1/metrics').map((b) => b.text)
  expect(metrics.join('\n')).toContain('"rag_console.calls"')
  expect(metrics.join('\n')).toContain('"rag_console.call.duration"')
})

it('sends one CLIENT span per search call with server, dialect, tool, outcome and latency, under the search', () => {
  const searches = receiver.spans
    .map((span) => ({ span, attributes: attributesOf(span) }))
    .filter((s) => s.attributes['rag.operation'] === 'search')
  const ok = searches.find((s) => s.attributes['rag.server'] === 'knowledgeSearch')
  expect(ok?.span).toMatchObject({ name: 'tools/call knowledgeSearch', kind: 3 })
  expect(ok?.attributes).toMatchObject({
    'rag.dialect': 'rag-search',
    'rag.tool': 'rag_search',
    'rpc.method': 'tools/call',
    'rag.outcome': 'ok',
    'rag.transport': 'http',
  })
  expect(ok?.attributes['rag.latency_ms']).toEqual(expect.any(Number))
  expect(BigInt(ok!.span.endTimeUnixNano)).toBeGreaterThan(BigInt(ok!.span.startTimeUnixNano))
  // The canary's search is the trace; the call is its child.
  const search = receiver.spans.find((span) => span.spanId === ok!.span.parentSpanId)
  expect(search).toMatchObject({ name: 'search', kind: 1, traceId: ok!.span.traceId })
})

it('marks a refused call as an error with its code', () => {
  const refused = receiver.spans
    .map((span) => ({ span, attributes: attributesOf(span) }))
    .find((s) => s.attributes['rag.server'] === 'locked' && s.attributes['rag.outcome'] === 'error')
  expect(refused?.attributes['error.type']).toBe('unauthorized')
  expect(refused?.span.status).toMatchObject({ code: 2, message: 'unauthorized' })
})

it('never sends, serves or prints a credential, an argument or the query', () => {
  expect(scraped).toContain('rag_console_canary_passed{server="locked",canary="refused"} 0')
  const sent = [...receiver.bodies.map((b) => b.text), scraped].join('\n')
  for (const needle of [KEY, WRONG, QUERY, 'search_phrases', 'Bearer']) {
    expect(sent).not.toContain(needle)
  }
  const printed = JSON.stringify(monitor.lines) + monitor.stderr()
  expect(printed).not.toContain(KEY)
  expect(printed).not.toContain(WRONG)
})
