import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEMO_USERS } from '#demo/access'
import { loadDemoGoldenSet } from '#main/demo-bootstrap/golden-set'
import { startCore, type LiveCore } from './support/core/live-core'
import type { EvalMetrics, EvalRun } from '#shared/model/evaluation'
import { repoRoot } from './support/process/built'
import { buildDemoGoldenSet } from './support/demo/golden-set'
import { demoProfile } from './support/demo/profiles'
import { EVAL_DEMO_ENV, startEvalDemo, type EvalDemo } from './support/demo/eval-demo'

const FILE = join(repoRoot, 'resources', 'eval', 'demo-golden-set.json')
const REGENERATE = 'UPDATE_GOLDEN_SET=1 npx vitest run src/test/demo-golden-set.test.ts'

describe('resources/eval/demo-golden-set.json', () => {
  const built = `${JSON.stringify(buildDemoGoldenSet(), null, 2)}\n`

  it('is what the builder makes of the demo data (regenerate with UPDATE_GOLDEN_SET=1)', () => {
    if (process.env.UPDATE_GOLDEN_SET === '1') {
      mkdirSync(dirname(FILE), { recursive: true })
      writeFileSync(FILE, built)
    }
    expect(readFileSync(FILE, 'utf8') === built, `stale or missing: run ${REGENERATE}`).toBe(true)
  })

  it('loads as a valid set of at least 30 graded queries, some asked as different users', () => {
    const set = loadDemoGoldenSet(FILE)!
    expect(set.queries.length).toBeGreaterThanOrEqual(30)
    const grades = new Set(set.queries.flatMap((q) => q.judgments.map((j) => j.grade)))
    expect([...grades].sort()).toEqual([0, 1, 2, 3])
    const byText = new Map<string, Set<string>>()
    for (const q of set.queries.filter((q) => q.profileId)) {
      byText.set(q.query, (byText.get(q.query) ?? new Set()).add(q.profileId!))
    }
    expect(
      [...byText.values()].filter((profiles) => profiles.size > 1).length,
    ).toBeGreaterThanOrEqual(3)
  })
})

describe('the demo golden set against the demo servers', () => {
  let demo: EvalDemo
  let live: LiveCore
  let run: EvalRun
  let metrics: EvalMetrics

  beforeAll(async () => {
    demo = await startEvalDemo()
    live = await startCore(demo.registry, { env: EVAL_DEMO_ENV })
    for (const user of DEMO_USERS) {
      const id = user.id.split('@')[0]!
      live.core.settings.saveProfile(demoProfile(user.id, id, user.name))
      // VTEX's categories start off; the analyst turns them on (as in the e2e specs).
      live.core.settings.setSelection(id, 'productCatalog', {
        'category/Technical': true,
        'category/FAQ': true,
        'category/Product': true,
      })
    }
    live.core.settings.setActive('carol')
    const evaluation = live.core.services.evaluation
    evaluation.saveSet(loadDemoGoldenSet(FILE)!)
    run = await (await evaluation.startRun({ setId: 'demo' })).done
    metrics = evaluation.metrics(run.summary.id)
  })

  afterAll(async () => {
    await live?.close()
    await demo?.stop()
  })

  const row = (list: string) =>
    metrics.rows.find(
      (r) =>
        !r.profileId &&
        (r.list.kind === 'provider' ? r.list.server : `merged:${r.list.fusion}`) === list,
    )!.values

  it('runs every query, each profile-bound one as its own profile, without a failed call', () => {
    expect(run.summary).toMatchObject({ status: 'done', total: run.queries.length, failures: 0 })
    expect(run.results.find((r) => r.queryId === 'sl-enterprise-alice')?.profileId).toBe('alice')
    expect(run.results.find((r) => r.queryId === 'it-vpn-admin-dan')?.profileId).toBe('dan')
    expect(run.results.find((r) => r.queryId === 'hb-pto-request')?.profileId).toBe('carol')
  })

  it('gives the merged list non-trivial quality (neither all 0 nor all 1)', () => {
    const merged = row('merged:rrf')
    expect(merged.judged).toBe(run.queries.length)
    for (const metric of [merged.ndcg, merged.recall, merged.mrr, merged.hitRate]) {
      expect(metric).toBeGreaterThan(0.3)
    }
    expect(merged.ndcg).toBeLessThan(0.99)
    expect(merged.precision).toBeLessThan(0.9)
    const perQuery = metrics.perQuery.filter(
      (c) => c.list.kind === 'merged' && c.list.fusion === 'rrf',
    )
    expect(new Set(perQuery.map((c) => c.ndcg.toFixed(2))).size).toBeGreaterThan(5)
  })

  it('shows a document to the user who may read it and withholds it from the one revoked', () => {
    const top = (queryId: string): string[] =>
      run.results
        .find((r) => r.queryId === queryId)!
        .providers.flatMap((p) => p.hits.map((h) => h.docKey))
    const playbook = /\/docs\/sl-enterprise-deals-playbook/
    expect(top('sl-enterprise-carol').some((key) => playbook.test(key))).toBe(true)
    expect(top('sl-enterprise-alice').some((key) => playbook.test(key))).toBe(false)
    const cell = (queryId: string) =>
      metrics.perQuery.find(
        (c) => c.queryId === queryId && c.list.kind === 'merged' && c.list.fusion === 'rrf',
      )!
    expect(cell('sl-enterprise-alice').found).toBeGreaterThan(0)
    expect(cell('sl-enterprise-carol').found).toBeGreaterThan(0)
  })

  it('lets every provider score on the documents it serves', () => {
    for (const server of [
      'knowledgeSearch',
      'companyDocs',
      'engineeringWiki',
      'documentVault',
      'productCatalog',
    ]) {
      expect(row(server).ndcg, server).toBeGreaterThan(0)
      expect(row(server).ndcg, server).toBeLessThan(1)
    }
  })
})
