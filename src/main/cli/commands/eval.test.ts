import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GoldenSet, MetricRow, MetricDelta } from '#shared/model/evaluation'
import { EVAL_DEMO_ENV, startEvalDemo, type EvalDemo } from '#test/support/demo/eval-demo'
import { loadDemoGoldenSet } from '../../demo-bootstrap/golden-set'
import { fixtureEntry } from '#test/support/core/live'
import {
  cliEnv,
  cliHome,
  json,
  runCli,
  spawnCli,
  writeRegistry,
  type CliRun,
} from '#test/support/cli/run-cli'

/** `rag-console eval` through the built CLI against the demo servers, as Carol. */

const CAROL = ['--user', 'carol@example.com', '--tags', '["department:legal","role:admin"]']

interface EvalJson {
  run: { id: string; status: string; total: number; done: number }
  k: number
  rows: MetricRow[]
  thresholds: { threshold: string; value: number | null; passed: boolean }[]
  baseline?: { deltas: MetricDelta[] }
  passed: boolean
}

let demo: EvalDemo
let home: string
let config: string
let setFile: string

const cli = (args: string[]): Promise<CliRun> =>
  runCli(['--config', config, ...CAROL, ...args], home, { env: EVAL_DEMO_ENV, timeoutMs: 90_000 })

const mergedNdcg = (result: EvalJson): number =>
  result.rows.find((r) => !r.profileId && r.list.kind === 'merged' && r.list.fusion === 'rrf')!
    .values.ndcg

beforeAll(async () => {
  // Six runs of twelve queries: more than RAGbox's 60 requests a minute (the runner would wait).
  demo = await startEvalDemo({ ragbox: ['--rate-limit', '100000'] })
  home = cliHome()
  config = writeRegistry(home, demo.registry)
  // The demo set's questions anyone may ask (the per-user ones need the demo's saved profiles).
  const demoSet = loadDemoGoldenSet()!
  const set: GoldenSet = {
    ...demoSet,
    id: 'cli-demo',
    queries: demoSet.queries.filter((q) => !q.profileId).slice(0, 12),
  }
  setFile = join(home, 'set.json')
  writeFileSync(setFile, JSON.stringify(set))
})

afterAll(async () => {
  await demo?.stop()
  if (home) rmSync(home, { recursive: true, force: true })
})

describe('eval', () => {
  let baselineId: string

  it('runs the set, prints metrics as JSON and passes a threshold it meets (exit 0)', async () => {
    const run = await cli([
      'eval',
      setFile,
      '--json',
      '--min',
      'ndcg@10=0.3',
      '--min',
      'hit_rate=0.5',
    ])
    expect(run.code, run.stderr).toBe(0)
    const result = json<EvalJson>(run)
    expect(result.run).toMatchObject({ status: 'done', total: 12, done: 12 })
    expect(mergedNdcg(result)).toBeGreaterThan(0.3)
    // judged@10 of every list: the demo set judges most of what the demo servers return.
    for (const row of result.rows) expect(row.values.judgedAtK).toBeGreaterThan(0)
    expect(result.thresholds.map((t) => t.passed)).toEqual([true, true])
    expect(result.passed).toBe(true)
    expect(run.stderr).toMatch(/12\/12 /)
    baselineId = result.run.id
  })

  it('exits 1 when a threshold fails, saying which', async () => {
    const run = await cli(['eval', setFile, '--min', 'ndcg@5=0.99'])
    expect(run.code, run.stderr).toBe(1)
    expect(run.stdout).toMatch(/^FAIL ndcg@5=0\.99: 0\.\d{3} \(merged:rrf, k=5\)$/m)
    expect(run.stdout).toMatch(/NDCG@10 +HIT +JUDGED@10/)
  })

  it('passes against a baseline it matches (no significant change)', async () => {
    const run = await cli(['eval', setFile, '--json', '--baseline', baselineId])
    expect(run.code, run.stderr).toBe(0)
    const deltas = json<EvalJson>(run).baseline!.deltas
    expect(deltas.map((d) => d.metric).sort()).toEqual([
      'hitRate',
      'mrr',
      'ndcg',
      'precision',
      'recall',
    ])
    expect(deltas.every((d) => d.pValue === 1 && d.delta === 0)).toBe(true)
  })

  it('exits 1 on a significant regression against the baseline (a weaker server set)', async () => {
    const run = await cli(['eval', setFile, '--baseline', baselineId, '--server', 'productCatalog'])
    expect(run.code, run.stdout + run.stderr).toBe(1)
    expect(run.stdout).toMatch(
      /^REGRESSION ndcg@10: 0\.\d{3} → 0\.\d{3} \(-0\.\d{3}, p=0\.0\d\d, 12 queries\)$/m,
    )
  })

  it('prints the merged list as a TREC run file', async () => {
    const run = await cli(['eval', setFile, '--format', 'trec', '--k', '5'])
    expect(run.code, run.stderr).toBe(0)
    const lines = run.stdout.trim().split('\n')
    expect(lines.length).toBeGreaterThan(12)
    expect(lines.length).toBeLessThanOrEqual(12 * 5)
    for (const line of lines) expect(line).toMatch(/^\S+ Q0 (uri|id):\S+ [1-5] [1-5] merged-rrf$/)
  })

  it('refuses a missing set, a bad threshold and an unknown format as usage errors (exit 2)', async () => {
    const missing = await cli(['eval', join(home, 'nope.json')])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/cannot read .*nope\.json: ENOENT/)
    const badMin = await cli(['eval', setFile, '--min', 'ndcg@10=high'])
    expect(badMin.code).toBe(2)
    expect(badMin.stderr).toMatch(/--min "ndcg@10=high": write METRIC\[@K\]=VALUE/)
    const badFormat = await cli(['eval', setFile, '--format', 'xml'])
    expect(badFormat.code).toBe(2)
    expect(badFormat.stderr).toMatch(/--format must be one of table, json, trec/)
  })

  it('refuses a set file that is not a golden set, naming the problem (exit 2)', async () => {
    const bad = join(home, 'bad.json')
    writeFileSync(bad, JSON.stringify({ version: 1, id: 'x', name: 'x', queries: [{ id: 'q 1' }] }))
    const run = await cli(['eval', bad])
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/is not a valid golden set: queries\.0\.id/)
  })
})

describe('eval interrupted', () => {
  it('Ctrl-C cancels the run, keeps it as cancelled with the queries done, and exits 1', async () => {
    const slowHome = cliHome()
    try {
      // Every search takes 700 ms: twelve queries four at a time leave time to interrupt.
      const slowConfig = writeRegistry(slowHome, {
        slow: fixtureEntry(['--name', 'slow', '--delay', '700']),
      })
      const child = spawnCli(['--config', slowConfig, 'eval', setFile], cliEnv(slowHome))
      let stderr = ''
      const progressed = new Promise<void>((resolve) =>
        child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
          stderr += chunk
          if (/\d+\/12 /.test(stderr)) resolve()
        }),
      )
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
      await progressed
      child.kill('SIGINT')
      expect(await exited).toBe(1)
      const id = /stored as run (\S+) \(cancelled\)/.exec(stderr)?.[1]
      expect(id, stderr).toBeDefined()
      const summary = readdirSync(slowHome, { recursive: true, encoding: 'utf8' }).find(
        (name) => name.includes(id!) && name.endsWith('.json') && !name.includes('summary'),
      )
      expect(summary).toBeDefined()
      const stored = JSON.parse(readFileSync(join(slowHome, summary!), 'utf8')) as {
        summary: { status: string; done: number; total: number }
      }
      expect(stored.summary.status).toBe('cancelled')
      expect(stored.summary.total).toBe(12)
      expect(stored.summary.done).toBeGreaterThan(0)
      expect(stored.summary.done).toBeLessThan(12)
    } finally {
      rmSync(slowHome, { recursive: true, force: true })
    }
  })
})
