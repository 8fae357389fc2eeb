import { randomBytes } from 'node:crypto'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fixtureEntry, startCore, type LiveCore } from './support/core/live'
import type { EventMap } from '#shared/ipc/contract'
import type { GoldenSet } from '#shared/model/evaluation'
import { demoProfile } from './support/demo/profiles'
import { EVAL_DEMO_ENV, startEvalDemo, type EvalDemo } from './support/demo/eval-demo'

/**
 * Evaluation runs over real servers: RAGbox's rate limit waited out, cancel, progress, per
 * profile runs, what a run file keeps (and never keeps).
 */

const SESSION_KEY = `eval-secret-${randomBytes(12).toString('hex')}`

const set = (id: string, queries: string[]): GoldenSet => ({
  version: 1,
  id,
  name: id,
  queries: queries.map((query, i) => ({
    id: `q${i + 1}`,
    query,
    judgments: [{ docKey: 'uri:http://127.0.0.1:47310/docs/hb-pto-policy', grade: 3 }],
  })),
})

let demo: EvalDemo
let live: LiveCore

beforeAll(async () => {
  // RAGbox counts 4 requests per 2-second window: a run of eight queries must wait twice.
  demo = await startEvalDemo({
    ragbox: ['--rate-limit', '4', '--rate-window', '2'],
    // A unique key, so the run file can be searched for it.
    'rag-search': ['--api-key', SESSION_KEY],
  })
  live = await startCore(
    {
      knowledgeSearch: {
        ...demo.registry.knowledgeSearch,
        headers: { Authorization: 'Bearer ${session:apiKey}' },
      },
      documentVault: demo.registry.documentVault!,
      slow: fixtureEntry(['--name', 'slow', '--delay', '150', '--hits', '3']),
    },
    { env: EVAL_DEMO_ENV },
  )
  live.core.secrets.setSessionToken('knowledgeSearch', 'apiKey', SESSION_KEY)
  for (const [userId, id] of [
    ['carol@example.com', 'carol'],
    ['alice@example.com', 'alice'],
  ]) {
    live.core.settings.saveProfile(demoProfile(userId!, id!, id!))
  }
  live.core.settings.setActive('carol')
})

afterAll(async () => {
  await live?.close()
  await demo?.stop()
})

const evaluation = () => live.core.services.evaluation

describe('a run against a rate-limited server', () => {
  it('waits out RAGbox’s limit instead of failing the queries', async () => {
    evaluation().saveSet(
      set('limited', ['pto', 'leave', 'vpn', 'travel', 'laptop', 'nda', 'msa', 'sales']),
    )
    const started = await evaluation().startRun({
      setId: 'limited',
      selection: { documentVault: [] },
      concurrency: 2,
    })
    const run = await started.done
    expect(run.summary).toMatchObject({ status: 'done', total: 8, done: 8, failures: 0 })
    expect(run.results.every((r) => r.providers[0]!.ok)).toBe(true)
    await live.core.services.idle()
    // The server did refuse on the way: the runner waited and asked again.
    const refused = live.auditLines().filter((l) => l.errorCode === 'rate_limited')
    expect(refused.length).toBeGreaterThan(0)
  })
})

describe('progress, cancel and the stored run', () => {
  it('reports each query, stops on cancel and stores what was done as cancelled', async () => {
    const queries = Array.from({ length: 20 }, (_, i) => `query ${i}`)
    evaluation().saveSet(set('long', queries))
    const progress: EventMap['eval:progress'][] = []
    const finished: EventMap['eval:run-finished'][] = []
    const offProgress = live.core.events.on('eval:progress', (event) => {
      progress.push(event)
      if (event.done === 2) evaluation().runner.cancel(event.runId)
    })
    const offFinished = live.core.events.on('eval:run-finished', (event) => finished.push(event))
    const started = await evaluation().startRun({
      runId: 'cancel-me',
      setId: 'long',
      selection: { slow: [] },
      concurrency: 1,
    })
    expect(started.summary).toMatchObject({
      id: 'cancel-me',
      status: 'running',
      total: 20,
      done: 0,
    })
    const run = await started.done
    offProgress()
    offFinished()
    expect(progress.map((p) => p.done)).toEqual([1, 2])
    expect(progress[0]).toMatchObject({
      runId: 'cancel-me',
      total: 20,
      queryId: 'q1',
      profileId: 'carol',
    })
    expect(run.summary.status).toBe('cancelled')
    expect(run.results.map((r) => r.queryId)).toEqual(['q1', 'q2'])
    expect(finished.map((f) => f.run.status)).toEqual(['cancelled'])
    expect(evaluation().runs.get('cancel-me').summary.status).toBe('cancelled')
    expect(
      evaluation()
        .runs.list('long')
        .map((s) => s.id),
    ).toEqual(['cancel-me'])
  })

  it('refuses a second run under the id of one still running, and lists the running one', async () => {
    evaluation().saveSet(set('busy-set', ['a', 'b', 'c', 'd', 'e', 'f']))
    const first = await evaluation().startRun({
      runId: 'busy',
      setId: 'busy-set',
      selection: { slow: [] },
      concurrency: 1,
    })
    await expect(
      evaluation().startRun({ runId: 'busy', setId: 'busy-set', selection: { slow: [] } }),
    ).rejects.toThrow(/evaluation run busy is already running/)
    expect(evaluation().listRuns('busy-set')[0]).toMatchObject({ id: 'busy', status: 'running' })
    evaluation().runner.cancel('busy')
    expect((await first.done).summary.status).toBe('cancelled')
    expect(evaluation().listRuns('busy-set')).toMatchObject([{ id: 'busy', status: 'cancelled' }])
  })

  it('refuses a second run under a stored run’s id', async () => {
    await expect(evaluation().startRun({ runId: 'cancel-me', setId: 'long' })).rejects.toThrow(
      /a run with id cancel-me is stored already/,
    )
  })

  it('keeps inputs, hits, latencies and errors per query and provider, and no secret', async () => {
    evaluation().saveSet(set('kept', ['paid time off policy', 'vpn setup']))
    const run = await (
      await evaluation().startRun({
        runId: 'kept-run',
        setId: 'kept',
        selection: { knowledgeSearch: [], missing: [] },
        k: 5,
      })
    ).done
    expect(run.inputs).toMatchObject({ setId: 'kept', k: 5, profiles: ['carol'] })
    const first = run.results[0]!
    expect(first.providers.map((p) => p.server)).toEqual(['knowledgeSearch', 'missing'])
    const [search, missing] = first.providers
    expect(search!.ok, JSON.stringify(search!.error)).toBe(true)
    expect(search!.hits.length).toBeGreaterThan(0)
    expect(search!.hits.length).toBeLessThanOrEqual(5)
    expect(search!.hits[0]).toMatchObject({
      docKey: expect.stringMatching(/^uri:http:\/\/127\.0\.0\.1:47310\/docs\//),
    })
    expect(search!.latencyMs).toBeGreaterThan(0)
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' }, hits: [] })
    const dir = join(live.dir, 'data', 'eval', 'runs')
    const files = readdirSync(dir).filter((f) => f.startsWith('kept-run'))
    expect(files.sort()).toEqual(['kept-run.json', 'kept-run.summary.json'])
    for (const file of files)
      expect(readFileSync(join(dir, file), 'utf8')).not.toContain(SESSION_KEY)
  })
})

describe('sources per query', () => {
  it('asks a query with sources of its own only those, within the run’s servers', async () => {
    const base = set('own-sources', ['everywhere', 'only the slow one', 'only a server outside'])
    base.queries[1]!.sources = { slow: [] }
    base.queries[2]!.sources = { documentVault: [] }
    evaluation().saveSet(base)
    const run = await (
      await evaluation().startRun({
        setId: 'own-sources',
        selection: { knowledgeSearch: [], slow: [] },
      })
    ).done
    const servers = run.results.map((r) => [r.queryId, r.providers.map((p) => p.server)])
    expect(servers).toEqual([
      ['q1', ['knowledgeSearch', 'slow']],
      ['q2', ['slow']],
      ['q3', []],
    ])
  })
})

describe('profiles', () => {
  it('runs each query as each named profile and gives each its own metric rows', async () => {
    evaluation().saveSet(set('two-users', ['paid time off policy']))
    const run = await (
      await evaluation().startRun({
        setId: 'two-users',
        selection: { knowledgeSearch: [] },
        profiles: ['carol', 'alice'],
      })
    ).done
    expect(run.results.map((r) => r.profileId).sort()).toEqual(['alice', 'carol'])
    const metrics = evaluation().metrics(run.summary.id)
    const profiles = metrics.rows.filter((r) => r.list.kind === 'provider').map((r) => r.profileId)
    expect(profiles).toEqual([undefined, 'alice', 'carol'])
  })

  it('refuses, before sending anything, a profile that is not saved', async () => {
    const before = live.auditLines().length
    await expect(
      evaluation().startRun({ setId: 'two-users', profiles: ['mallory'] }),
    ).rejects.toThrow(/runs as profile "mallory", which is not saved here/)
    await live.core.services.idle()
    expect(live.auditLines().length).toBe(before)
  })
})

describe('pooled judging', () => {
  const PTO = 'uri:http://127.0.0.1:47310/docs/hb-pto-policy'

  it('pools every provider’s top k over two runs, with grades now and coverage that rises as it is judged', async () => {
    evaluation().saveSet({ ...set('pooled', ['paid time off policy', 'vpn setup']) })
    const runA = await (
      await evaluation().startRun({ setId: 'pooled', selection: { knowledgeSearch: [] }, k: 5 })
    ).done
    const runB = await (
      await evaluation().startRun({ setId: 'pooled', selection: { documentVault: [] }, k: 5 })
    ).done
    const pool = evaluation().pool('pooled', [runA.summary.id, runB.summary.id], 3)
    // The pool, worked out from the runs: each provider's top 3 of each query, deduplicated.
    for (const query of ['q1', 'q2']) {
      const expected = new Set(
        [runA, runB].flatMap((run) =>
          run.results
            .filter((r) => r.queryId === query)
            .flatMap((r) => r.providers.flatMap((p) => p.hits.slice(0, 3).map((h) => h.docKey))),
        ),
      )
      const pooled = pool.queries.find((q) => q.queryId === query)!.documents
      expect(new Set(pooled.map((d) => d.docKey))).toEqual(expected)
      for (const doc of pooled) {
        expect(doc.found.every((f) => f.rank >= 1 && f.rank <= 3)).toBe(true)
        expect(doc.found.every((f) => [runA.summary.id, runB.summary.id].includes(f.runId))).toBe(
          true,
        )
      }
    }
    expect(pool.size).toBe(pool.queries.reduce((n, q) => n + q.documents.length, 0))
    const pto = pool.queries[0]!.documents.find((d) => d.docKey === PTO)
    expect(pto).toMatchObject({ grade: 3, uri: 'http://127.0.0.1:47310/docs/hb-pto-policy' })
    expect(pool.judged).toBe(1)
    // Judge one more document of the first run's list: its grade shows and coverage rises.
    const unjudged = pool.queries[0]!.documents.find(
      (d) => d.grade === null && d.found.some((f) => f.runId === runA.summary.id),
    )!
    const coverage = (p: typeof pool): number =>
      p.coverage.find(
        (c) =>
          c.runId === runA.summary.id &&
          c.list.kind === 'provider' &&
          c.list.server === 'knowledgeSearch',
      )!.judgedAtK!
    evaluation().judge({
      setId: 'pooled',
      queryId: 'q1',
      query: 'paid time off policy',
      docKey: unjudged.docKey,
      grade: 1,
    })
    const after = evaluation().pool('pooled', [runA.summary.id, runB.summary.id], 3)
    expect(after.judged).toBe(2)
    expect(after.queries[0]!.documents.find((d) => d.docKey === unjudged.docKey)!.grade).toBe(1)
    expect(coverage(after)).toBeGreaterThan(coverage(pool))
    // The judgment is in the set file: another console on this data folder reads it.
    expect(readFileSync(join(live.dir, 'data', 'eval', 'sets', 'pooled.json'), 'utf8')).toContain(
      unjudged.docKey,
    )
  })

  it('gives a pool document’s words and link, asked again of the server that found it', async () => {
    const run = evaluation()
      .listRuns('pooled')
      .find((r) => r.servers.includes('knowledgeSearch'))!
    const pool = evaluation().pool('pooled', [run.id])
    const doc = pool.queries[0]!.documents[0]!
    const found = doc.found[0]!
    const text = await evaluation().poolDocument({
      runId: run.id,
      queryId: 'q1',
      profileId: found.profileId,
      server: found.server,
      docKey: doc.docKey,
    })
    expect(text.unavailable).toBeUndefined()
    expect(text.text!.length).toBeGreaterThan(20)
    expect(text.uri).toMatch(/^http:\/\/127\.0\.0\.1:47310\/docs\//)
    expect(text.title).toBeTruthy()
    // A document the server does not return for this query says so, with what to do.
    const missing = await evaluation().poolDocument({
      runId: run.id,
      queryId: 'q1',
      profileId: found.profileId,
      server: found.server,
      docKey: 'uri:http://127.0.0.1:47310/docs/not-a-document',
    })
    expect(missing.unavailable).toMatch(
      /knowledgeSearch no longer returns this document for “paid time off policy” as carol: open its link/,
    )
  })

  it('refuses to pool a run of another set', async () => {
    const other = evaluation().listRuns('kept')[0]!
    expect(() => evaluation().pool('pooled', [other.id])).toThrow(
      /is a run of golden set kept, not of pooled/,
    )
  })
})
