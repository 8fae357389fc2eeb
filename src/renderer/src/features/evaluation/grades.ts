import { dedupeKey } from '../../../../shared/model/hit-identity'
import type { EvalQuery, GoldenSet, Grade } from '../../../../shared/model/evaluation'
import type { Hit } from '../../../../shared/model/rag'

/** Grade words, lowest first, as the relevance control and the judgment tables show them. */
export const GRADE_LABELS: Record<Grade, string> = {
  0: 'not relevant',
  1: 'somewhat relevant',
  2: 'relevant',
  3: 'highly relevant',
}

/** One word each, for the compact control in a hit row. */
export const GRADE_SHORT: Record<Grade, string> = {
  0: 'not',
  1: 'somewhat',
  2: 'relevant',
  3: 'highly',
}

/** The key a hit is judged by: the merged list's identity, so each document is judged once. */
export const judgedKey = (hit: Pick<Hit, 'id' | 'uri'>): string => dedupeKey(hit)

/**
 * The query of `set` that a Search for `query` judges into: the one with the same text that
 * runs as every profile (the one `eval:judge` creates), else any with the same text.
 */
export function judgedQuery(set: GoldenSet | undefined, query: string): EvalQuery | undefined {
  const same = set?.queries.filter((q) => q.query === query) ?? []
  return same.find((q) => q.profileId === undefined) ?? same[0]
}

/** Document key → grade of the query a Search for `query` judges into. */
export function gradesFor(set: GoldenSet | undefined, query: string): ReadonlyMap<string, Grade> {
  return new Map(judgedQuery(set, query)?.judgments.map((j) => [j.docKey, j.grade]) ?? [])
}

/** The grade a key press gives on a hit list: `0`…`3`; anything else is not a grade. */
export function gradeOfKey(key: string): Grade | undefined {
  return key === '0' || key === '1' || key === '2' || key === '3'
    ? (Number(key) as Grade)
    : undefined
}

/**
 * A set id from a name the user typed: lower-case words joined by dashes, file-name and TREC
 * safe; `taken` ids get a numeric suffix.
 */
export function setIdFor(name: string, taken: ReadonlySet<string>): string {
  const base =
    name
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 100) || 'set'
  let id = base
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`
  return id
}
