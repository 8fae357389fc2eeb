import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll } from 'vitest'
import { freePort } from '../pool/helpers'
import { SAFETY_NET_MS } from '../process/limits'

/** Debian's Prometheus (`apt-get install prometheus`; `.ci/run` installs it). */
const BINARY = process.env.PROMETHEUS_BIN ?? 'prometheus'

/** An alert as `/api/v1/alerts` lists it (pending or firing). */
export interface PrometheusAlert {
  labels: Record<string, string>
  annotations: Record<string, string>
  state: 'pending' | 'firing'
  activeAt: string
  value: string
}

/** A rule as `/api/v1/rules` lists it. */
export interface PrometheusRule {
  name: string
  type: 'alerting' | 'recording'
  health: 'ok' | 'err' | 'unknown'
  lastError?: string
  lastEvaluation: string
  annotations?: Record<string, string>
}

/** A Prometheus server run by a test: its own config, storage and loopback port. */
export interface PrometheusProcess {
  url: string
  /** Instant query through the HTTP API: the result vector. */
  query(promql: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>
  /** The alerts pending or firing now. */
  alerts(): Promise<PrometheusAlert[]>
  /** Every rule loaded, group by group. */
  rules(): Promise<PrometheusRule[]>
  stop(): Promise<void>
}

/**
 * Starts Prometheus scraping `target` (host:port, path /metrics) and evaluating `ruleFiles` every
 * second; fails with a clear message when the binary is missing (CI installs it: the test must
 * not pass without it).
 */
export async function startPrometheus(
  target: string,
  ruleFiles: string[] = [],
): Promise<PrometheusProcess> {
  const version = spawnSync(BINARY, ['--version'], { encoding: 'utf8' })
  if (version.error || version.status !== 0) {
    throw new Error(
      `Prometheus is not installed (${BINARY}: ${version.error?.message ?? version.stderr}); install it with "apt-get install -y prometheus" (.ci/run does)`,
    )
  }
  const dir = mkdtempSync(join(tmpdir(), 'rc-prometheus-'))
  const config = join(dir, 'prometheus.yml')
  writeFileSync(
    config,
    [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      ...(ruleFiles.length > 0 ? ['rule_files:', ...ruleFiles.map((f) => `  - '${f}'`)] : []),
      'scrape_configs:',
      '  - job_name: rag-console',
      '    static_configs:',
      `      - targets: ['${target}']`,
      '',
    ].join('\n'),
  )
  const port = await freePort()
  const child: ChildProcess = spawn(
    BINARY,
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  let stderr = ''
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const url = `http://127.0.0.1:${port}`
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
      await exited
      clearTimeout(timer)
    }
    rmSync(dir, { recursive: true, force: true })
  }
  const deadline = Date.now() + SAFETY_NET_MS
  for (;;) {
    const ready = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    )
    if (ready) break
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop()
      throw new Error(`Prometheus did not get ready:\n${stderr}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const api = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${url}/api/v1/${path}`)
    const body = (await response.json()) as { status: string; error?: string; data?: T }
    if (body.status !== 'success') throw new Error(`${path} failed: ${body.error}`)
    return body.data!
  }
  return {
    url,
    async query(promql) {
      type Vector = { metric: Record<string, string>; value: [number, string] }[]
      return (await api<{ result: Vector }>(`query?query=${encodeURIComponent(promql)}`)).result
    },
    async alerts() {
      return (await api<{ alerts: PrometheusAlert[] }>('alerts')).alerts
    },
    async rules() {
      const data = await api<{ groups: { rules: PrometheusRule[] }[] }>('rules')
      return data.groups.flatMap((group) => group.rules)
    },
    stop,
  }
}

/**
 * Starts a file's engines once, in `beforeAll`; each test awaits the promise this returns, so a
 * missing Prometheus fails every test with its install hint (never a skip).
 */
export function startOnce(start: () => Promise<void>): () => Promise<void> {
  let started: Promise<void> | undefined
  beforeAll(() => {
    started = start()
    started.catch(() => {})
  })
  return () => started!
}
