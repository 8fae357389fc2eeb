import { describe, expect, it } from 'vitest'
import type { EvalProviderResult, EvalQuery, EvalRun, MetricRow } from '#shared/model/evaluation'
import { compareRuns } from './compare'
import { runMetrics } from './run-metrics'

/** Hand-made runs: two providers A and B, documents by id (no links). */

const provider = (server: string, docs: string[] | 'failed', latencyMs = 10): EvalProviderResult =>
  docs === 'failed'
    ? { server, ok: false, error: { code: 'timeout', message: 'late' }, latencyMs, hits: [] }
    : { server, ok: true, latencyMs, hits: docs.map((d) => ({ docKey: d, id: d, title: d })) }

const QUERIES: EvalQuery[] = [
  {
    id: 'q1',
    query: 'one',
    judgments: [
      { docKey: 'id:d1', grade: 3 },
      { docKey: 'id:d2', grade: 1 },
    ],
  },
  { id: 'q2', query: 'two', judgments: [{ docKey: 'id:d3', grade: 2 }] },
  {
    id: 'q3',
    query: 'three',
    judgments: [{ docKey: 'uri:http://docs.test/d4', aliases: ['id:d4'], grade: 2 }],
  },
]

function run(
  id: string,
  results: Record<string, EvalProviderResult[]>,
  profile = 'carol',
): EvalRun {
  return {
    version: 1,
    summary: {
      id,
      setId: 's',
      setName: 's',
      status: 'done',
      startedAt: '2026-01-01T00:00:00Z',
      total: 3,
      done: 3,
      failures: 0,
      servers: ['A', 'B'],
      profiles: [profile],
      k: 4,
    },
    inputs: { setId: 's', setName: 's', profiles: [profile], k: 4, concurrency: 1 },
    queries: QUERIES,
    results: Object.entries(results).map(([queryId, providers]) => ({
      queryId,
      profileId: profile,
      elapsedMs: Math.max(...providers.map((p) => p.latencyMs)),
      providers,
    })),
  }
}

const BASE = run('base', {
  q1: [provider('A', ['id:d1', 'id:x']), provider('B', ['id:y', 'id:d2'])],
  q2: [provider('A', 'failed'), provider('B', ['id:d3'], 30)],
  q3: [provider('A', ['uri:http://docs.test/d4']), provider('B', ['id:d4'])],
})

const rowOf = (rows: MetricRow[], list: string): MetricRow =>
  rows.find(
    (r) => (r.list.kind === 'provider' ? r.list.server : `merged:${r.list.fusion}`) === list,
  )!

describe('metric table of a run', () => {
  const metrics = runMetrics(BASE, 4)
  const cell = (queryId: string, list: string) =>
    metrics.perQuery.find(
      (c) =>
        c.queryId === queryId &&
        (c.list.kind === 'provider' ? c.list.server : `merged:${c.list.fusion}`) === list,
    )!

  it('fuses the providers’ lists by RRF as Search does and measures the merged list', () => {
    // q1 merged: d1 (A#1, 1/61), y (B#1, 1/61, after A by server), x (A#2), d2 (B#2).
    // DCG@4 = 3/log2(2) + 1/log2(5) = 3 + 0.43068 = 3.43068
    // IDCG@4 = 3 + 1/log2(3) = 3 + 0.63093 = 3.63093; nDCG = 0.94485
    const q1 = cell('q1', 'merged:rrf')
    expect(q1.ndcg).toBeCloseTo(0.94485, 4)
    expect(q1).toMatchObject({ recall: 1, precision: 0.5, rr: 1, found: 2, relevant: 2 })
  })

  it('scores a failed provider as a miss and counts it in the failure rate', () => {
    expect(cell('q2', 'A')).toMatchObject({ failed: true, ndcg: 0, recall: 0 })
    expect(cell('q2', 'merged:rrf')).toMatchObject({ failed: false, ndcg: 1 })
    // A failed one of its three calls; its latencies are those of the calls that answered.
    expect(rowOf(metrics.rows, 'A').values).toMatchObject({
      failureRate: 1 / 3,
      failed: 1,
      queries: 3,
    })
    expect(rowOf(metrics.rows, 'B').values).toMatchObject({ failureRate: 0, latencyP50Ms: 10 })
  })

  it('counts a document found under two keys (a link and an alias) once', () => {
    // Merged q3: the link from A and the id from B are one judged document: P@4 = 1/4, not 2/4.
    expect(cell('q3', 'merged:rrf')).toMatchObject({ ndcg: 1, precision: 0.25, found: 1 })
    expect(cell('q3', 'B')).toMatchObject({ ndcg: 1, found: 1 })
  })

  it('averages per list over the judged queries', () => {
    // A: q1 nDCG@4 = 3 / 3.63093 = 0.82623, q2 0 (failed), q3 1 → mean 0.60874
    expect(rowOf(metrics.rows, 'A').values.ndcg).toBeCloseTo(0.60874, 4)
    expect(rowOf(metrics.rows, 'A').values.mrr).toBeCloseTo(2 / 3, 10)
    expect(rowOf(metrics.rows, 'merged:rrf').values.hitRate).toBe(1)
  })

  it('reports judged@k: the share of each top k that has a judgment', () => {
    // q1: A [d1, x] and B [y, d2] have one judged document of two; merged d1, y, x, d2: 2 of 4.
    expect(
      [cell('q1', 'A'), cell('q1', 'B'), cell('q1', 'merged:rrf')].map((c) => c.judgedAtK),
    ).toEqual([0.5, 0.5, 0.5])
    // q2: A failed (no list: null), B [d3] judged. q3: B's id:d4 is an alias of a judged link.
    expect(cell('q2', 'A').judgedAtK).toBeNull()
    expect(cell('q2', 'B').judgedAtK).toBe(1)
    expect(cell('q3', 'B').judgedAtK).toBe(1)
    // Means over the judged queries with a list: A (0.5 + 1) / 2; B and merged (0.5 + 1 + 1) / 3.
    expect(rowOf(metrics.rows, 'A').values.judgedAtK).toBe(0.75)
    expect(rowOf(metrics.rows, 'B').values.judgedAtK).toBeCloseTo(2.5 / 3, 12)
    expect(rowOf(metrics.rows, 'merged:rrf').values.judgedAtK).toBeCloseTo(2.5 / 3, 12)
  })

  it('refuses a cutoff above the hits the run kept', () => {
    expect(() => runMetrics(BASE, 5)).toThrow(/kept 4 hits per list; metrics at k=5 need a run/)
  })
})

describe('a server hidden from a profile', () => {
  // As Dan, B is hidden (its groups are not his): the search never asked it.
  const hidden: EvalProviderResult = {
    server: 'B',
    ok: false,
    error: {
      code: 'invalid_argument',
      origin: 'local',
      server: 'B',
      message: 'server B is hidden from profile "Dan"',
      details: { hiddenFromProfile: true },
    },
    latencyMs: 0,
    hits: [],
  }
  const dan = run('dan', {
    q1: [provider('A', ['id:d1']), hidden],
    q2: [provider('A', ['id:d3']), hidden],
  })
  const metrics = runMetrics(dan, 4)

  it('is not counted as the server failing, nor measured for that profile', () => {
    const b = dan.results.flatMap((r) => r.providers).filter((p) => p.server === 'B')
    expect(b).toHaveLength(2)
    expect(rowOf(metrics.rows, 'B').values).toMatchObject({ failureRate: 0, failed: 0, queries: 0 })
    expect(
      metrics.perQuery.find((c) => c.list.kind === 'provider' && c.list.server === 'B'),
    ).toMatchObject({ hidden: true, failed: false })
    // The merged list is what Dan got: A's hits, not a failure.
    expect(rowOf(metrics.rows, 'merged:rrf').values).toMatchObject({ failureRate: 0, queries: 2 })
  })
})

describe('comparing two runs', () => {
  // B loses d2 on q1 and finds nothing on q2; q3 is unchanged. Profiles differ (single each).
  const worse = run(
    'worse',
    {
      q1: [provider('A', ['id:d1', 'id:x']), provider('B', ['id:y'])],
      q2: [provider('A', 'failed'), provider('B', [])],
      q3: [provider('A', ['uri:http://docs.test/d4']), provider('B', ['id:d4'])],
    },
    'bob',
  )
  const comparison = compareRuns(BASE, worse)

  it('gives per-metric deltas with an exact paired p-value', () => {
    const ndcg = comparison.deltas.find(
      (d) => d.list.kind === 'merged' && d.list.fusion === 'rrf' && d.metric === 'ndcg',
    )!
    // Pairs (base, worse): q1 0.94485 → 3/3.63093 = 0.82623; q2 1 → 0; q3 1 → 1.
    // Differences −0.11862, −1, 0: of the 2² sign assignments of the non-zero ones, only the
    // two with both signs equal reach |sum| ≥ 1.11862: p = 2/4 = 0.5.
    expect(ndcg.pairs).toBe(3)
    expect(ndcg.a).toBeCloseTo((0.94485 + 1 + 1) / 3, 4)
    expect(ndcg.b).toBeCloseTo((0.82623 + 0 + 1) / 3, 4)
    expect(ndcg.pValue).toBe(0.5)
  })

  it('lists the queries that got worse, largest drop first, and none better', () => {
    const merged = comparison.worse.filter(
      (q) => q.list.kind === 'merged' && q.list.fusion === 'rrf',
    )
    expect(merged.map((q) => [q.queryId, q.query])).toEqual([
      ['q2', 'two'],
      ['q1', 'one'],
    ])
    expect(comparison.better).toEqual([])
  })

  it('names the relevant documents the new run lost, with their rank before', () => {
    const lost = comparison.lostDocuments.filter(
      (d) => d.list.kind === 'merged' && d.list.fusion === 'rrf',
    )
    expect(lost.map((d) => [d.queryId, d.docKey, d.grade, d.rankInA])).toEqual([
      ['q1', 'id:d2', 1, 4],
      ['q2', 'id:d3', 2, 1],
    ])
  })

  it('finds nothing to report between a run and itself', () => {
    const same = compareRuns(BASE, BASE)
    expect(same.deltas.every((d) => d.delta === 0 && d.pValue === 1)).toBe(true)
    expect([...same.better, ...same.worse, ...same.lostDocuments]).toEqual([])
  })
})

describe('a provider whose score is a distance', () => {
  it('ranks its nearest document first in the score-fused merged lists', () => {
    const near = (docKey: string, score: number) => ({
      docKey,
      id: docKey,
      title: docKey,
      score,
      scoreOrder: 'lower-is-better' as const,
    })
    const distances: EvalProviderResult = {
      server: 'A',
      ok: true,
      latencyMs: 10,
      hits: [near('id:d1', 0.1), near('id:x', 0.7)],
    }
    const metrics = runMetrics(run('dist', { q1: [distances] }), 4)
    for (const fusion of ['score', 'minmax']) {
      const q1 = metrics.perQuery.find(
        (c) => c.queryId === 'q1' && c.list.kind === 'merged' && c.list.fusion === fusion,
      )!
      expect(q1.rr).toBe(1)
    }
  })
})
