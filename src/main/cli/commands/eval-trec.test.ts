import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { published, trecEvalFixture, trecMeasures } from '#test/support/eval/trec-eval-fixtures'
import { cliHome, json, runCli, type CliRun } from '#test/support/cli/run-cli'

/**
 * `rag-console eval --qrels QRELS --run RUN` through the built CLI: no registry, no server, no
 * data folder; trec_eval's own test files (src/test/fixtures/eval/trec_eval).
 */

const fixture = trecEvalFixture

let home: string
const cli = (args: string[]): Promise<CliRun> => runCli(args, home)

beforeAll(() => {
  home = cliHome()
})

afterAll(() => {
  if (home) rmSync(home, { recursive: true, force: true })
})

/** `eval --qrels FIXTURE --run FIXTURE …more` */
const files = (qrels: string, run: string, ...more: string[]): string[] => [
  'eval',
  '--qrels',
  fixture(qrels),
  '--run',
  fixture(run),
  ...more,
]

describe('eval --qrels --run', () => {
  it('prints what `trec_eval -q` prints for the same files (--format trec)', async () => {
    const run = await cli(
      files('qrels.test', 'results.test', '--k', '5,10,100', '--format', 'trec'),
    )
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout.trimEnd().split('\n')).toEqual(
      published('out.test.aq', trecMeasures([5, 10, 100])),
    )
    // Nothing was written to the data folder: no core was started.
    expect(existsSync(home) ? readdirSync(home) : []).toEqual([])
  })

  it('with -c prints what `trec_eval -q -c` prints, and says which query had no run lines', async () => {
    const run = await cli(
      files('qrels.test', 'results.trunc', '-c', '--k', '10,5', '--format', 'trec'),
    )
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout.trimEnd().split('\n')).toEqual(
      published('out.test.aqc', trecMeasures([5, 10])),
    )
    expect(run.stderr).toMatch(
      /1 judged query has no run lines and scores 0 in the means \(--complete\): 302/,
    )
  })

  it('without -c leaves that query out of the means and says how to count it', async () => {
    const run = await cli([...files('qrels.test', 'results.trunc', '--k', '5'), '--json'])
    expect(run.code, run.stderr).toBe(0)
    const result = json<{
      all: Record<string, number>
      queries: { qid: string; map: number }[]
      unrankedQueries: string[]
      measures: Record<string, string>
    }>(run)
    expect(result.queries.map((q) => q.qid)).toEqual(['301', '303'])
    expect(result.all.num_q).toBe(2)
    // out.test.aqc's per-query map: 301 0.0324, 303 0.2723 → mean over two queries
    expect(result.all.map).toBeCloseTo((result.queries[0]!.map + result.queries[1]!.map) / 2, 12)
    expect(result.all.map!.toFixed(4)).toBe('0.1523')
    expect(result.unrankedQueries).toEqual(['302'])
    expect(result.measures).toMatchObject({
      map: 'map',
      recip_rank: 'mrr',
      P_5: 'precision@5',
      recall_5: 'recall@5',
      ndcg_cut_5: 'ndcg@5',
      judged_5: 'judged@5',
    })
    expect(result.all.judged_5).toBe(1)
    expect(run.stderr).toMatch(
      /left out of the means; --complete \(trec_eval -c\) counts it as 0: 302/,
    )
  })

  it('prints a table with trec_eval’s names under the console’s, a row per query and all', async () => {
    const run = await cli(files('qrels.test', 'results.test', '--k', '5'))
    expect(run.code, run.stderr).toBe(0)
    const lines = run.stdout.trimEnd().split('\n')
    expect(lines[0]!.split(/\s+/)).toEqual([
      'QUERY',
      'MAP',
      'MRR',
      'PRECISION@5',
      'RECALL@5',
      'NDCG@5',
      'JUDGED@5',
    ])
    expect(lines[1]!.split(/\s+/)).toEqual([
      'trec_eval',
      'map',
      'recip_rank',
      'P_5',
      'recall_5',
      'ndcg_cut_5',
      '(ours)',
    ])
    // out.test.aq: all map 0.1785, recip_rank 0.4064, P_5 0.2667, recall_5 0.0173, ndcg_cut_5 0.2768
    expect(lines.at(-1)!.split(/\s+/)).toEqual([
      'all',
      '0.1785',
      '0.4064',
      '0.2667',
      '0.0173',
      '0.2768',
      '1.0000',
    ])
    expect(lines.map((line) => line.split(/\s+/)[0])).toEqual([
      'QUERY',
      'trec_eval',
      '301',
      '302',
      '303',
      'all',
    ])
  })

  it('warns when the top k is mostly unjudged: unjudged hits count as misses', async () => {
    const qrels = join(home, 'few.qrels')
    const runFile = join(home, 'few.run')
    writeFileSync(qrels, 'q1 0 a 1\n')
    writeFileSync(runFile, 'q1 Q0 a 1 3 r\nq1 Q0 b 2 2 r\nq1 Q0 c 3 1 r\n')
    try {
      const run = await cli(['eval', '--qrels', qrels, '--run', runFile, '--k', '3'])
      expect(run.code, run.stderr).toBe(0)
      expect(run.stderr).toMatch(
        /judged@3 is 0\.3333: 67% of the top 3 has no judgment and counts as not relevant/,
      )
    } finally {
      rmSync(qrels)
      rmSync(runFile)
    }
  })

  it('refuses unreadable or malformed files and stray options as usage errors (exit 2)', async () => {
    const missing = await cli([
      'eval',
      '--qrels',
      join(home, 'nope'),
      '--run',
      fixture('results.test'),
    ])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/cannot read .*nope: ENOENT/)
    const onlyOne = await cli(['eval', '--qrels', fixture('qrels.test')])
    expect(onlyOne.code).toBe(2)
    expect(onlyOne.stderr).toMatch(/needs both files/)
    const swapped = await cli(files('results.test', 'qrels.test'))
    expect(swapped.code).toBe(2)
    expect(swapped.stderr).toMatch(/results\.test line 1 is not a TREC line \(qid iter docno rel/)
    const stray = await cli(files('qrels.test', 'results.test', '--min', 'ndcg@10=0.5'))
    expect(stray.code).toBe(2)
    expect(stray.stderr).toMatch(/--min belongs to a golden set run/)
    const badK = await cli(files('qrels.test', 'results.test', '--k', '5,x'))
    expect(badK.code).toBe(2)
    expect(badK.stderr).toMatch(/--k must be a whole number/)
  })
})
