import type { EvalQuery, GoldenSet, Grade } from '#shared/model/evaluation'
import { MAX_EXTRA_PHRASES, type Selection } from '#shared/model/operations'
import type { Profile } from '#shared/model/user'

/** Extra phrases from a text area: one a line, blank lines dropped. */
export function phrasesFromText(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
}

/** `server: source, source` a line; a server alone runs on its default sources. */
export function sourcesToText(sources: Selection | undefined): string {
  return Object.entries(sources ?? {})
    .map(([server, ids]) => (ids.length > 0 ? `${server}: ${ids.join(', ')}` : server))
    .join('\n')
}

/** The sources text read back: a selection (undefined when empty) or what is wrong with it. */
export function sourcesFromText(
  text: string,
): { sources: Selection | undefined } | { error: string } {
  const sources: Selection = {}
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim()
    if (line === '') continue
    const colon = line.indexOf(':')
    const server = (colon < 0 ? line : line.slice(0, colon)).trim()
    if (!/^\S+$/.test(server)) {
      return {
        error: `Line ${index + 1}: write “server: source, source” (server ids have no spaces).`,
      }
    }
    const ids =
      colon < 0
        ? []
        : line
            .slice(colon + 1)
            .split(',')
            .map((id) => id.trim())
    sources[server] = [...(sources[server] ?? []), ...ids.filter((id) => id !== '')]
  }
  return { sources: Object.keys(sources).length > 0 ? sources : undefined }
}

/** A query id not used in the set yet: `q1`, `q2`, … */
export function nextQueryId(set: GoldenSet): string {
  const taken = new Set(set.queries.map((q) => q.id))
  let n = set.queries.length + 1
  while (taken.has(`q${n}`)) n++
  return `q${n}`
}

/** The set with one query changed (matched by id). */
export function withQuery(
  set: GoldenSet,
  queryId: string,
  change: (query: EvalQuery) => EvalQuery,
): GoldenSet {
  return { ...set, queries: set.queries.map((q) => (q.id === queryId ? change(q) : q)) }
}

/** The set with a judgment's grade changed, or the judgment removed (null). */
export function withGrade(
  set: GoldenSet,
  queryId: string,
  docKey: string,
  grade: Grade | null,
): GoldenSet {
  return withQuery(set, queryId, (query) => ({
    ...query,
    judgments:
      grade === null
        ? query.judgments.filter((j) => j.docKey !== docKey)
        : query.judgments.map((j) => (j.docKey === docKey ? { ...j, grade } : j)),
  }))
}

/** A new empty query at the end of the set. */
export function withNewQuery(set: GoldenSet): { set: GoldenSet; queryId: string } {
  const queryId = nextQueryId(set)
  return {
    set: { ...set, queries: [...set.queries, { id: queryId, query: 'new query', judgments: [] }] },
    queryId,
  }
}

/** Without the query and its judgments. */
export const withoutQuery = (set: GoldenSet, queryId: string): GoldenSet => ({
  ...set,
  queries: set.queries.filter((q) => q.id !== queryId),
})

/** Relevant judgments (grade above 0) of a query. */
export const relevantCount = (query: EvalQuery): number =>
  query.judgments.filter((j) => j.grade > 0).length

/** Judgments of every query of the set. */
export const judgmentCount = (set: GoldenSet): number =>
  set.queries.reduce((sum, q) => sum + q.judgments.length, 0)

/** The set with a query's acting profile changed; empty runs it as every profile of the run. */
export const withProfile = (set: GoldenSet, queryId: string, profileId: string): GoldenSet =>
  withQuery(set, queryId, ({ profileId: _old, ...q }) => (profileId ? { ...q, profileId } : q))

/** The set with a query's extra phrases as typed: the first {@link MAX_EXTRA_PHRASES}, or none. */
export function withPhrasesText(set: GoldenSet, queryId: string, text: string): GoldenSet {
  const phrases = phrasesFromText(text).slice(0, MAX_EXTRA_PHRASES)
  return withQuery(set, queryId, ({ phrases: _old, ...q }) =>
    phrases.length > 0 ? { ...q, phrases } : q,
  )
}

/** The set with a query's sources as typed; the same set while the text cannot be read. */
export function withSourcesText(set: GoldenSet, queryId: string, text: string): GoldenSet {
  const read = sourcesFromText(text)
  if (!('sources' in read)) return set
  return withQuery(set, queryId, ({ sources: _old, ...q }) =>
    read.sources ? { ...q, sources: read.sources } : q,
  )
}

/** A query's text area whose text is kept as typed. */
export type TypedField = 'phrases' | 'sources'

/** Texts as typed (a phrase being written, sources half typed), by `<query>:<field>`. */
export type TypedTexts = Readonly<Record<string, string>>

export const typedKey = (queryId: string, field: TypedField): string => `${queryId}:${field}`

/** What is wrong with the first typed sources that cannot be read, naming the query. */
export function sourcesProblem(typed: TypedTexts): string | undefined {
  for (const [key, text] of Object.entries(typed)) {
    if (!key.endsWith(':sources')) continue
    const read = sourcesFromText(text)
    if ('error' in read) return `${key.slice(0, -':sources'.length)}: ${read.error}`
  }
  return undefined
}

/** `true` when typed sources cannot be read (for `aria-invalid`). */
export const invalidSources = (text: string | undefined): true | undefined =>
  text !== undefined && 'error' in sourcesFromText(text) ? true : undefined

/** The "Runs as" choices: every profile, and the query's own when no profile has its id. */
export function profileOptions(
  profiles: readonly Pick<Profile, 'id' | 'name'>[],
  profileId: string | undefined,
): { value: string; label: string }[] {
  return [
    { value: '', label: 'Every profile of the run' },
    ...profiles.map((p) => ({ value: p.id, label: p.name })),
    ...(profileId && !profiles.some((p) => p.id === profileId)
      ? [{ value: profileId, label: `${profileId} (no such profile)` }]
      : []),
  ]
}
