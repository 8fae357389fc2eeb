import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'

/**
 * The alert and recording rules of the operations pack, checked by Prometheus's own promtool:
 * syntax (`check rules`) and behaviour on synthetic series (`test rules`: each alert fires when
 * it should and stays quiet on the look-alikes). Fails, never skips, without promtool.
 */
const ROOT = join(__dirname, '..', '..')
const RULES = join(ROOT, 'resources', 'monitoring')
const TESTS = join(__dirname, 'monitoring-rules')
const PROMTOOL = process.env.PROMTOOL_BIN ?? 'promtool'

const files = (dir: string, suffix: string): string[] =>
  readdirSync(dir)
    .filter((name) => name.endsWith(suffix))
    .map((name) => join(dir, name))
const ruleFiles = files(RULES, '.rules.yml')
const testFiles = files(TESTS, '.test.yml')

function promtool(args: string[]): { status: number | null; output: string } {
  const run = spawnSync(PROMTOOL, args, { cwd: ROOT, encoding: 'utf8' })
  if (run.error) {
    throw new Error(
      `promtool is not installed (${PROMTOOL}: ${run.error.message}); it comes with "apt-get install -y prometheus" (.ci/run does)`,
    )
  }
  return { status: run.status, output: `${run.stdout}${run.stderr}` }
}

const alerts = ruleFiles.flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(/^\s*- alert: (\w+)$/gm)].map((m) => m[1]!),
)

it('has rule files, and promtool finds every rule in them valid', () => {
  expect(ruleFiles.map((file) => file.slice(RULES.length + 1))).toEqual(['rag-console.rules.yml'])
  const check = promtool(['check', 'rules', ...ruleFiles])
  expect(check.output).toContain('SUCCESS')
  expect(check.status, check.output).toBe(0)
})

it('passes its promtool unit tests: each alert fires when it should, and only then', () => {
  const test = promtool(['test', 'rules', ...testFiles])
  expect(test.status, test.output).toBe(0)
  expect(test.output.match(/SUCCESS/g)).toHaveLength(testFiles.length)
})

it('tests every alert both firing and quiet', () => {
  const tests = testFiles.map((file) => readFileSync(file, 'utf8')).join('\n')
  const expectations = [...tests.matchAll(/alertname: (\w+)\n\s+exp_alerts:( \[\])?/g)].map(
    ([, name, none]) => `${name} ${none ? 'quiet' : 'fires'}`,
  )
  expect(alerts).toEqual(
    expect.arrayContaining([
      'RagServerDown',
      'RagCanaryFailing',
      'RagErrorRateHigh',
      'RagLatencyAboveBaseline',
      'RagRateLimitHeadroomLow',
      'RagOAuthSignInExpired',
      'RagOAuthSignInExpiring',
      'RagMonitorDown',
      'RagMonitorStale',
    ]),
  )
  for (const alert of alerts) {
    expect(expectations).toContain(`${alert} fires`)
    expect(expectations).toContain(`${alert} quiet`)
  }
})

it('links every alert to its runbook section in docs/monitoring.md', () => {
  const docs = readFileSync(join(ROOT, 'docs', 'monitoring.md'), 'utf8')
  const anchors = new Set(
    [...docs.matchAll(/^#+ (.+)$/gm)].map((m) =>
      m[1]!
        .toLowerCase()
        .replace(/[^a-z0-9 -]/g, '')
        .replace(/ /g, '-'),
    ),
  )
  const rules = ruleFiles.map((file) => readFileSync(file, 'utf8')).join('\n')
  const links = [...rules.matchAll(/runbook_url: (\S+)/g)].map((m) => m[1]!)
  expect(links).toHaveLength(alerts.length)
  for (const link of links) {
    const [page, anchor] = link.split('#')
    expect(page).toBe('docs/monitoring.md')
    expect(anchors.has(anchor!), `no section #${anchor} in docs/monitoring.md`).toBe(true)
    expect(rules).toContain(`Runbook: ${link}`)
  }
})

it('ships an importable Grafana dashboard whose data source is a variable', () => {
  const dashboard = JSON.parse(readFileSync(join(RULES, 'grafana-dashboard.json'), 'utf8')) as {
    __inputs: { name: string; type: string; pluginId: string }[]
    templating: { list: { name: string; type: string; query: unknown }[] }
    panels: {
      id: number
      type: string
      datasource?: { uid: string }
      targets?: { expr: string; datasource?: { uid: string } }[]
      gridPos?: object
    }[]
    uid: string
    schemaVersion: number
  }
  expect(dashboard.__inputs).toEqual([
    expect.objectContaining({ name: 'DS_PROMETHEUS', type: 'datasource', pluginId: 'prometheus' }),
  ])
  expect(dashboard.templating.list.find((v) => v.name === 'datasource')).toMatchObject({
    type: 'datasource',
    query: 'prometheus',
  })
  const ids = dashboard.panels.map((p) => p.id)
  expect(new Set(ids).size).toBe(ids.length)
  for (const panel of dashboard.panels.filter((p) => p.type !== 'row')) {
    expect(panel.gridPos).toBeDefined()
    expect(panel.datasource?.uid).toBe('${datasource}')
    expect(panel.targets?.length).toBeGreaterThan(0)
    for (const target of panel.targets ?? []) expect(target.datasource?.uid).toBe('${datasource}')
  }
})
