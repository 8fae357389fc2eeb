import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api'
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics'
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace'
import type { CallObservers, CallRecord, OperationScope } from '../pool/call-observer'
import { otlpTargets } from './otlp-targets'

export interface TelemetryOptions {
  /** The process environment: the OTLP exporters read their settings from it. */
  env: NodeJS.ProcessEnv
  calls: CallObservers
  /** The dialect a server speaks, for span attributes (`unknown` until known). */
  dialectOf(server: string): string
  version: string
  /** How often metrics are pushed (default: OTEL_METRIC_EXPORT_INTERVAL, else 60 s). */
  metricIntervalMs?: number
}

/**
 * OpenTelemetry export over OTLP/HTTP: one span per operation (a search, a discovery, …) and,
 * under it, one CLIENT span per server call (server, dialect, operation, method, tool, outcome,
 * error code, latency: never arguments, results or credentials); the call counter and latency
 * histogram as OTLP metrics. The exporters read the standard OTEL_EXPORTER_OTLP_* variables
 * (endpoint, headers, protocol, timeout) from the process environment.
 */
export class Telemetry {
  private readonly tracing?: TracerProvider
  private readonly metering?: MeterProvider
  private readonly stops: (() => void)[] = []
  /** The spans of the operations in progress, by scope id. */
  private readonly open = new Map<number, Span>()

  constructor(options: TelemetryOptions) {
    const targets = otlpTargets(options.env)
    const resource = resourceFromAttributes({
      'service.name': options.env.OTEL_SERVICE_NAME?.trim() || 'rag-console',
      'service.version': options.version,
    })
    if (targets.traces) {
      this.tracing = new TracerProvider({
        resource,
        spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })],
      })
    }
    if (targets.metrics) {
      const interval = Number(options.env.OTEL_METRIC_EXPORT_INTERVAL)
      this.metering = new MeterProvider({
        resource,
        readers: [
          new PeriodicExportingMetricReader({
            exporter: new OTLPMetricExporter(),
            exportIntervalMillis: options.metricIntervalMs ?? (interval > 0 ? interval : 60_000),
          }),
        ],
      })
    }
    const tracer = this.tracing?.getTracer('rag-console', options.version)
    const meter = this.metering?.getMeter('rag-console', options.version)
    const calls = meter?.createCounter('rag_console.calls', {
      description: 'Calls to servers by operation and outcome',
    })
    const latency = meter?.createHistogram('rag_console.call.duration', {
      description: 'Latency of calls to servers',
      unit: 's',
    })
    const within = (scope: OperationScope | undefined): Context | undefined => {
      const parent = scope && this.open.get(scope.id)
      return parent ? trace.setSpan(ROOT_CONTEXT, parent) : undefined
    }
    if (tracer) {
      this.stops.push(
        options.calls.addOperations({
          start: (scope) => {
            const span = tracer.startSpan(
              scope.name,
              {
                kind: SpanKind.INTERNAL,
                startTime: scope.startedAt,
                attributes: { 'rag.operation': scope.name },
              },
              within(scope.parent),
            )
            this.open.set(scope.id, span)
          },
          end: (scope, endedAt, code) => {
            const span = this.open.get(scope.id)
            this.open.delete(scope.id)
            if (!span) return
            span.setAttribute('rag.outcome', code ? 'error' : 'ok')
            if (code) {
              span.setAttribute('error.type', code)
              span.setStatus({ code: SpanStatusCode.ERROR, message: code })
            }
            span.end(endedAt)
          },
        }),
      )
    }
    this.stops.push(
      options.calls.add((record) => {
        const attributes = spanAttributes(record, options.dialectOf(record.server))
        calls?.add(1, {
          'rag.server': record.server,
          'rag.operation': record.operation,
          'rag.outcome': record.code ?? 'ok',
          'rag.traffic': record.traffic,
        })
        latency?.record(record.ms / 1000, {
          'rag.server': record.server,
          'rag.operation': record.operation,
          'rag.traffic': record.traffic,
        })
        if (!tracer) return
        const span = tracer.startSpan(
          `${record.method} ${record.server}`,
          { kind: SpanKind.CLIENT, startTime: record.endedAt - record.ms, attributes },
          within(options.calls.current()),
        )
        if (record.code) span.setStatus({ code: SpanStatusCode.ERROR, message: record.code })
        span.end(record.endedAt)
      }),
    )
  }

  /** Whether anything is exported. */
  get active(): boolean {
    return this.tracing !== undefined || this.metering !== undefined
  }

  /** Sends what is buffered and stops the exporters. */
  async dispose(): Promise<void> {
    for (const stop of this.stops.splice(0)) stop()
    await Promise.all([this.tracing?.shutdown(), this.metering?.shutdown()])
  }
}

function spanAttributes(record: CallRecord, dialect: string): Attributes {
  const attributes: Attributes = {
    'rag.server': record.server,
    'rag.dialect': dialect,
    'rag.operation': record.operation,
    'rag.transport': record.transport,
    'rpc.system': 'jsonrpc',
    'rpc.method': record.method,
    'rag.outcome': record.code ? 'error' : 'ok',
    'rag.traffic': record.traffic,
    'rag.latency_ms': Math.round(record.ms * 1000) / 1000,
  }
  if (record.expected) attributes['rag.expected_error'] = true
  if (record.tool) attributes['rag.tool'] = record.tool
  if (record.code) attributes['error.type'] = record.code
  if (record.origin) attributes['rag.error_origin'] = record.origin
  return attributes
}
