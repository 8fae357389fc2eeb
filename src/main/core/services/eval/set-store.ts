import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { ConsoleError } from '#shared/errors'
import type {
  EvalQuery,
  GoldenSet,
  GoldenSetSummary,
  Grade,
  Judgment,
} from '#shared/model/evaluation'
import { evalIdSchema, goldenSetSchema } from '#shared/model/golden-set-schema'
import type { Redactor } from '../../secrets/types'
import { writeFileAtomicSync } from '../../util/atomic-write'
import { readStored } from './read-file'

/** One judgment from Search (`eval:judge`). */
export interface JudgeRequest {
  setId: string
  setName?: string | undefined
  queryId?: string | undefined
  query: string
  profileId?: string | undefined
  docKey: string
  /** null removes the judgment. */
  grade: Grade | null
  title?: string | undefined
  uri?: string | undefined
}

/** Parsed sets {@link GoldenSetStore.peek} keeps. */
const PARSED_KEPT = 4

/**
 * Golden sets, one JSON file each in `<dir>/<id>.json`, validated on read and on save. Files
 * pass through the redactor before they are written. `demo` is offered once: the first time the
 * folder is opened and does not exist yet.
 */
export class GoldenSetStore {
  constructor(
    private readonly dir: string,
    private readonly redactor: Redactor,
    private readonly demo?: () => GoldenSet | undefined,
  ) {}

  /** Sets parsed for {@link peek}, by id, with the size, time and inode of the file read. */
  private readonly parsed = new Map<string, { stamp: string; set: GoldenSet }>()

  /** Every readable set, by name; unreadable files are left out. */
  list(): GoldenSetSummary[] {
    this.seed()
    const summaries: GoldenSetSummary[] = []
    for (const file of readdirSync(this.dir)) {
      if (!file.endsWith('.json')) continue
      try {
        summaries.push(summarize(this.get(file.slice(0, -'.json'.length))))
      } catch {
        // a hand-broken file: get() names the problem when it is asked for by id
      }
    }
    return summaries.sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))
  }

  has(id: string): boolean {
    return existsSync(this.file(id))
  }

  /** A set by id: `not_found` when missing, `invalid_argument` naming the problem when broken. */
  get(id: string): GoldenSet {
    const text = readStored(
      this.file(id),
      () => new ConsoleError({ code: 'not_found', message: `no golden set with id ${id}` }),
    )
    return parseGoldenSet(text, `golden set ${id}`)
  }

  /**
   * {@link get} for reading only (an evaluation run's plan): the parsed set is kept while its
   * file stays the same (size, modification time, inode), so running a large set again, or in
   * parts, does not read and validate the whole file each time (~16 ms for 1,000 queries).
   * The caller must not change it: {@link get} returns a set of its own.
   */
  peek(id: string): GoldenSet {
    const file = this.file(id)
    let stamp: string
    try {
      const stat = statSync(file, { bigint: true })
      stamp = `${stat.size}:${stat.mtimeNs}:${stat.ino}`
    } catch {
      return this.get(id)
    }
    const known = this.parsed.get(id)
    if (known?.stamp === stamp) return known.set
    // Stamped before reading: a write in between is read now and again next time.
    const set = this.get(id)
    this.parsed.delete(id)
    this.parsed.set(id, { stamp, set })
    for (const old of this.parsed.keys()) {
      if (this.parsed.size <= PARSED_KEPT) break
      this.parsed.delete(old)
    }
    return set
  }

  /** Validates, stamps `updatedAt` and writes a set (replacing the one with its id). */
  save(set: GoldenSet): GoldenSet {
    const parsed = goldenSetSchema.safeParse({ ...set, updatedAt: new Date().toISOString() })
    if (!parsed.success) throw invalid(`golden set ${set.id}`, parsed.error.issues)
    const { $schema: _schema, ...clean } = parsed.data
    const saved = this.redactor.redact(clean)
    mkdirSync(this.dir, { recursive: true })
    writeFileAtomicSync(this.file(saved.id), `${JSON.stringify(saved, null, 2)}\n`)
    this.parsed.delete(saved.id)
    return saved
  }

  delete(id: string): boolean {
    if (!this.has(id)) return false
    rmSync(this.file(id), { force: true })
    this.parsed.delete(id)
    return true
  }

  /** Saves the demo set under its own id (replacing an edited copy). */
  addDemo(): GoldenSet {
    const demo = this.demo?.()
    if (!demo)
      throw new ConsoleError({
        code: 'not_found',
        message:
          'the demo golden set judges the demo servers’ documents: it is offered only with the embedded demo registry',
      })
    return this.save(demo)
  }

  /** Records one judgment, creating the set and the query when missing. */
  judge(request: JudgeRequest): { set: GoldenSet; queryId: string; judgment: Judgment | null } {
    const set: GoldenSet = this.has(request.setId)
      ? this.get(request.setId)
      : { version: 1, id: request.setId, name: request.setName ?? request.setId, queries: [] }
    const query = findQuery(set, request) ?? addQuery(set, request)
    // A key that is an alias of a judged document judges that document.
    const at = query.judgments.findIndex(
      (j) => j.docKey === request.docKey || j.aliases?.includes(request.docKey),
    )
    let judgment: Judgment | null = null
    if (request.grade === null) {
      if (at >= 0) query.judgments.splice(at, 1)
    } else {
      const before = query.judgments[at]
      judgment = { ...before, docKey: before?.docKey ?? request.docKey, grade: request.grade }
      if (request.title) judgment.title = request.title
      if (request.uri) judgment.uri = request.uri
      if (at >= 0) query.judgments[at] = judgment
      else query.judgments.push(judgment)
    }
    return { set: this.save(set), queryId: query.id, judgment }
  }

  private seed(): void {
    if (existsSync(this.dir)) return
    mkdirSync(this.dir, { recursive: true })
    if (this.demo?.()) this.addDemo()
  }

  private file(id: string): string {
    if (!evalIdSchema.safeParse(id).success) {
      throw new ConsoleError({ code: 'not_found', message: `no golden set with id ${id}` })
    }
    return join(this.dir, `${id}.json`)
  }
}

/** Parses and validates a golden set file's text; `invalid_argument` says what is wrong. */
export function parseGoldenSet(text: string, what: string): GoldenSet {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new ConsoleError({
      code: 'invalid_argument',
      message: `${what} is not JSON: ${(error as Error).message}`,
    })
  }
  const parsed = goldenSetSchema.safeParse(json)
  if (!parsed.success) throw invalid(what, parsed.error.issues)
  const { $schema: _schema, ...set } = parsed.data
  return set
}

export function summarize(set: GoldenSet): GoldenSetSummary {
  const summary: GoldenSetSummary = {
    id: set.id,
    name: set.name,
    queryCount: set.queries.length,
    judgmentCount: set.queries.reduce((sum, q) => sum + q.judgments.length, 0),
  }
  if (set.description) summary.description = set.description
  if (set.updatedAt) summary.updatedAt = set.updatedAt
  return summary
}

function invalid(what: string, issues: { path: PropertyKey[]; message: string }[]): ConsoleError {
  const first = issues
    .slice(0, 3)
    .map((issue) => `${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`)
  return new ConsoleError({
    code: 'invalid_argument',
    message: `${what} is not a valid golden set: ${first.join('; ')}`,
    details: { issues: issues.length },
  })
}

function findQuery(set: GoldenSet, request: JudgeRequest): EvalQuery | undefined {
  if (request.queryId) return set.queries.find((q) => q.id === request.queryId)
  return set.queries.find(
    (q) => q.query === request.query && (q.profileId ?? undefined) === request.profileId,
  )
}

function addQuery(set: GoldenSet, request: JudgeRequest): EvalQuery {
  const taken = new Set(set.queries.map((q) => q.id))
  let n = set.queries.length + 1
  while (taken.has(`q${n}`)) n++
  const query: EvalQuery = { id: request.queryId ?? `q${n}`, query: request.query, judgments: [] }
  if (request.profileId) query.profileId = request.profileId
  set.queries.push(query)
  return query
}
