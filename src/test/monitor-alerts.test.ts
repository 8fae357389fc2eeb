import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { RAGBOX_KEYS } from '#demo/keys'
import { eventually, startDemo, type DemoProcess } from './support/demo/programs'
import { startMonitor, type MonitorProcess } from './support/cli/monitor-process'
import { cliHome, runCli, writeRegistry } from './support/cli/run-cli'
import { KeychainStore } from '#core/secrets/keychain-store'
import { describeWithKeyring, uniqueServerId } from './support/secrets/keyring'
import {
  startOnce,
  startPrometheus,
  type PrometheusAlert,
  type PrometheusProcess,
} from './support/servers/prometheus'

/**
 * The operations pack against the real engines: Debian's Prometheus scrapes `rag-console
 * monitor` (1 s scrapes and evaluations) with resources/monitoring/rag-console.rules.yml loaded,
 * while the monitor watches VTEX, RAGbox (rate limits) and OAuth (signed in, keychain) demo
 * servers. A killed server's down alert fires and resolves in Prometheus's own alerts API, and
 * every panel of the Grafana dashboard gets data from its PromQL.
 */
const ROOT = join(__dirname, '..', '..')
const RULES = join(ROOT, 'resources', 'monitoring', 'rag-console.rules.yml')
const DASHBOARD = join(ROOT, 'resources', 'monitoring', 'grafana-dashboard.json')

interface Panel {
  type: string
  title: string
  datasource?: { type: string; uid: string }
  targets?: { expr: string; datasource?: { uid: string } }[]
  gridPos?: object
}

describeWithKeyring('the operations pack against Prometheus and rag-console monitor', () => {
  const signedIn = uniqueServerId('monitor-oauth')
  let home: string
  let dir: string
  let demos: DemoProcess[] = []
  let spare: DemoProcess
  let spareUrl: URL
  let monitor: MonitorProcess
  let prometheus: PrometheusProcess
  const setup = startOnce(start)

  async function start(): Promise<void> {
    home = cliHome()
    dir = mkdtempSync(join(tmpdir(), 'rc-alerts-'))
    const [catalog, vault, oauth] = await Promise.all([
      startDemo(['vtex', '--port', '0']),
      startDemo(['ragbox', '--port', '0', '--rate-limit', '100000']),
      startDemo(['oauth', '--port', '0', '--approve-as', 'carol@example.com']),
    ])
    spare = await startDemo(['vtex', '--port', '0'])
    spareUrl = new URL(spare.url)
    demos = [catalog!, vault!, oauth!]
    const config = writeRegistry(home, {
      catalog: {
        url: catalog!.url,
        dialect: 'vtex',
        canaries: [{ name: 'laptops', query: 'laptop', expect: { minHits: 1 } }],
      },
      spare: { url: spare.url, dialect: 'vtex', timeoutMs: 2_000 },
      vault: { url: vault!.url, headers: { 'X-API-Key': '${env:ALERTS_TEST_RAGBOX_KEY}' } },
      [signedIn]: { url: oauth!.url, oauth: {} },
    })
    const login = await runCli(['--config', config, 'auth', 'login', '--server', signedIn], home, {
      env: { RAG_CONSOLE_OAUTH_OPENER: 'fetch' },
    })
    expect(login.code, login.stderr).toBe(0)
    monitor = await startMonitor(['--config', config, '--interval', '1s'], home, {
      ALERTS_TEST_RAGBOX_KEY: RAGBOX_KEYS.acme,
    })
    prometheus = await startPrometheus(new URL(monitor.metricsUrl).host, [shortened()])
  }

  /** The rules as shipped, their `for:` holds read in seconds instead of minutes. */
  function shortened(): string {
    const file = join(dir, 'rag-console.rules.yml')
    writeFileSync(file, readFileSync(RULES, 'utf8').replace(/\bfor: (\d+)m\b/g, 'for: $1s'))
    return file
  }

  afterAll(async () => {
    await prometheus?.stop()
    await monitor?.stop()
    await Promise.all([...demos, spare].map((demo) => demo?.stop()))
    const keychain = new KeychainStore()
    for (const name of ['oauth.tokens', 'oauth.client', 'oauth.verifier']) {
      await keychain.delete(signedIn, name)
    }
    for (const folder of [home, dir]) if (folder) rmSync(folder, { recursive: true, force: true })
  })

  const downAlert = async (server: string): Promise<PrometheusAlert | undefined> =>
    (await prometheus.alerts()).find(
      (a) => a.labels.alertname === 'RagServerDown' && a.labels.server === server,
    )

  it('loads every rule, and each evaluates on the live series without error', async () => {
    await setup()
    const rules = await eventually(async () => {
      const all = await prometheus.rules()
      return all.length > 0 && all.every((r) => r.lastEvaluation > '2000') ? all : undefined
    })
    expect(rules.filter((r) => r.health !== 'ok').map((r) => `${r.name}: ${r.lastError}`)).toEqual(
      [],
    )
    expect(rules.filter((r) => r.type === 'alerting').length).toBeGreaterThanOrEqual(9)
  })

  it('fires RagServerDown for a killed server within a bounded time, and resolves it once back', async () => {
    await setup()
    await eventually(async () =>
      (await prometheus.query('rag_console_server_up{server="spare"} == 1')).length
        ? true
        : undefined,
    )
    await spare.stop()
    const firing = await eventually(async () => {
      const alert = await downAlert('spare')
      return alert?.state === 'firing' ? alert : undefined
    }, 45_000)
    expect(firing.labels).toMatchObject({ severity: 'critical', job: 'rag-console' })
    expect(firing.annotations.summary).toBe('RAG server spare is not connected')
    expect(firing.annotations.description).toContain('rag-console doctor --server spare')
    expect(firing.annotations.runbook_url).toBe('docs/monitoring.md#ragserverdown')

    spare = await startDemo(['vtex', '--port', spareUrl.port])
    await eventually(async () => ((await downAlert('spare')) ? undefined : true), 90_000, 250)
    expect(await downAlert('catalog')).toBeUndefined()
  }, 300_000)

  // After the server was killed: the failed-calls panel has failures to show.
  it('gets data for every panel of the Grafana dashboard from its PromQL', async () => {
    await setup()
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as {
      panels: Panel[]
      templating: { list: { name: string; type: string }[] }
    }
    const panels = dashboard.panels.filter((p) => p.type !== 'row')
    const queries = panels.flatMap((panel) =>
      (panel.targets ?? []).map((target) => ({
        panel: panel.title,
        promql: substitute(target.expr),
      })),
    )
    expect(queries.length).toBeGreaterThanOrEqual(panels.length)
    const withoutData = async (): Promise<string[]> => {
      const missing: string[] = []
      for (const { panel, promql } of queries) {
        if ((await prometheus.query(promql)).length === 0) missing.push(`${panel}: ${promql}`)
      }
      return missing
    }
    // Rates need two scrapes in their window: poll until every panel has its data, or time out
    // and show which panels have none.
    let empty = await withoutData()
    await eventually(
      async () => ((empty = await withoutData()).length === 0 ? true : undefined),
      60_000,
      1_000,
    ).catch(() => {})
    expect(empty).toEqual([])
  })
})

/** A panel's PromQL as Grafana sends it with every variable at "All" and a 5-minute range. */
function substitute(expr: string): string {
  return expr
    .replaceAll('$__rate_interval', '1m')
    .replaceAll('$__range', '5m')
    .replaceAll('$instance', '.*')
    .replaceAll('$server', '.*')
}
