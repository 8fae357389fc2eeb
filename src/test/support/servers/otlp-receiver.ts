import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gunzipSync } from 'node:zlib'

/** An OTLP/JSON attribute value (only the kinds the console sends). */
interface AnyValue {
  stringValue?: string
  intValue?: number | string
  doubleValue?: number
  boolValue?: boolean
}

/** One span as OTLP/JSON carries it (`ExportTraceServiceRequest.resourceSpans[].scopeSpans[].spans[]`). */
export interface OtlpSpan {
  traceId: string
  spanId: string
  /** Absent (or empty) for a trace's root span. */
  parentSpanId?: string
  name: string
  kind: number
  startTimeUnixNano: string
  endTimeUnixNano: string
  attributes: { key: string; value: AnyValue }[]
  status?: { code?: number; message?: string }
}

interface TraceRequest {
  resourceSpans?: { scopeSpans?: { spans?: OtlpSpan[] }[] }[]
}

/**
 * A loopback OTLP/HTTP receiver (what a collector's `otlp` receiver does on :4318): accepts
 * POST /v1/traces and /v1/metrics in the OTLP/JSON encoding the Node exporters send, keeps
 * every raw body and the spans.
 */
export interface OtlpReceiver {
  endpoint: string
  spans: OtlpSpan[]
  /** Every request body as received (decompressed), by path. */
  bodies: { path: string; text: string }[]
  close(): Promise<void>
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: OtlpSpan[] = []
  const bodies: { path: string; text: string }[] = []
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const raw = Buffer.concat(chunks)
      const text = (
        request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw
      ).toString('utf8')
      const path = request.url ?? ''
      bodies.push({ path, text })
      if (path === '/v1/traces') {
        const body = JSON.parse(text) as TraceRequest
        for (const resource of body.resourceSpans ?? [])
          for (const scope of resource.scopeSpans ?? []) spans.push(...(scope.spans ?? []))
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const { port } = server.address() as AddressInfo
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** A span's attributes as a plain object. */
export function attributesOf(span: OtlpSpan): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {}
  for (const { key, value } of span.attributes) {
    const v = value.stringValue ?? value.doubleValue ?? value.boolValue ?? value.intValue
    if (v !== undefined)
      out[key] = typeof v === 'string' && value.intValue !== undefined ? Number(v) : v
  }
  return out
}
