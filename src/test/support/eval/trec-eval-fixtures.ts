import { readFileSync } from 'node:fs'
import { join } from 'node:path'

/** trec_eval's own test files and published outputs (see src/test/fixtures/eval/trec_eval/README.md). */
export const trecEvalFixture = (name: string): string =>
  join(import.meta.dirname, '../../fixtures/eval/trec_eval', name)

/** The names trec_eval prints for the measures the console computes, at these cutoffs. */
export const trecMeasures = (cutoffs: readonly number[]): Set<string> =>
  new Set([
    'runid',
    'num_q',
    'num_ret',
    'num_rel',
    'num_rel_ret',
    'map',
    'recip_rank',
    ...cutoffs.flatMap((k) => [`P_${k}`, `recall_${k}`, `ndcg_cut_${k}`]),
  ])

/** The lines of a trec_eval output file (or of ours) for `measures`, in their order. */
export const linesOf = (text: string, measures: ReadonlySet<string>): string[] =>
  text
    .trimEnd()
    .split('\n')
    .filter((line) => measures.has(line.split('\t')[0]!.trim()))

/** trec_eval's published lines of `file` for `measures`. */
export const published = (file: string, measures: ReadonlySet<string>): string[] =>
  linesOf(readFileSync(trecEvalFixture(file), 'utf8'), measures)
