import { dedupeKey } from '#shared/model/hit-identity'
import type { EvalQuery, GoldenSet, Grade } from '#shared/model/evaluation'
import type { Hit } from '#shared/model/rag'

/**
 * Grade words, lowest first, as the relevance control and the judgment tables show them: the
 * golden-set format's own scale (TREC's graded qrels), so a set reads the same everywhere.
 */
export const GRADE_LABELS: Record<Grade, string> = {
  0: 'not relevant',
  1: 'relevant',
  2: 'highly relevant',
  3: 'perfect',
}

/** One word each, for the compact control in a hit row. */
export const GRADE_SHORT: Record<Grade, string> = {
  0: 'not',
  1: 'relevant',
  2: 'highly',
  3: 'perfect',
}

/** The key a hit is judged by: the merged list's identity, so each document is judged once. */
export const judgedKey = (hit: Pick<Hit, 'id' | 'uri'>): string => dedupeKey(hit)

/**
 * The query of `set` a Search for `query` as `profileId` judges into: the one with the same
 * text for that profile, else the one for every profile. Another user's query is never
 * touched: what is relevant may differ per user.
 */
export function judgedQuery(
  set: GoldenSet | undefined,
  query: string,
  profileId: string | undefined,
): EvalQuery | undefined {
  const same = set?.queries.filter((q) => q.query === query) ?? []
  return (
    same.find((q) => profileId !== undefined && q.profileId === profileId) ??
    same.find((q) => q.profileId === undefined)
  )
}

/**
 * Document key → grade of the query a Search judges into (see {@link judgedQuery}); a judgment's aliases
 * (other keys of the same document) carry its grade too.
 */
export function gradesFor(
  set: GoldenSet | undefined,
  query: string,
  profileId: string | undefined,
): ReadonlyMap<string, Grade> {
  const grades = new Map<string, Grade>()
  for (const j of judgedQuery(set, query, profileId)?.judgments ?? []) {
    for (const key of [j.docKey, ...(j.aliases ?? [])]) grades.set(key, j.grade)
  }
  return grades
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
