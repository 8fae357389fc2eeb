/*
 * Kept apart from telemetry.ts so that a console can ask whether to export without loading
 * OpenTelemetry, which it imports only when it does.
 */

const has = (env: NodeJS.ProcessEnv, name: string): boolean => (env[name] ?? '').trim() !== ''

/**
 * Whether OTLP export is configured by the standard variables: traces with
 * OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, metrics with it or
 * OTEL_EXPORTER_OTLP_METRICS_ENDPOINT; OTEL_SDK_DISABLED=true turns both off.
 */
export function otlpTargets(env: NodeJS.ProcessEnv): { traces: boolean; metrics: boolean } {
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') {
    return { traces: false, metrics: false }
  }
  const all = has(env, 'OTEL_EXPORTER_OTLP_ENDPOINT')
  return {
    traces: all || has(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'),
    metrics: all || has(env, 'OTEL_EXPORTER_OTLP_METRICS_ENDPOINT'),
  }
}
