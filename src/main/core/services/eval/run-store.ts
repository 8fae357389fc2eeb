import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { ConsoleError } from '#shared/errors'
import type { EvalRun, EvalRunSummary } from '#shared/model/evaluation'
import { evalQuerySchema, runIdSchema } from '#shared/model/golden-set-schema'
import { SCORE_ORDERS } from '#shared/model/rag'
import { redactedJson } from '../../secrets/redactor'
import type { Redactor } from '../../secrets/types'
import { writeFileAtomicSync } from '../../util/atomic-write'
import { readStored } from './read-file'

/** Runs kept; the oldest finished ones are deleted beyond it. */
export const MAX_STORED_RUNS = 100

const SUMMARY = '.summary.json'

/**
 * Stored runs: `<dir>/<id>.json` holds the whole run, `<dir>/<id>.summary.json` its summary, so
 * listing runs never parses their hits. Both pass through the redactor before they are written.
 */
export class RunStore {
  constructor(
    private readonly dir: string,
    private readonly redactor: Redactor,
    private readonly limit = MAX_STORED_RUNS,
  ) {}

  /**
   * Summaries, newest first (of one set, or all); unreadable ones are left out. A run another
   * process is running is marked `external`; one whose process is gone is listed as failed.
   */
  list(setId?: string): EvalRunSummary[] {
    if (!existsSync(this.dir)) return []
    const summaries: EvalRunSummary[] = []
    for (const file of readdirSync(this.dir)) {
      if (!file.endsWith(SUMMARY) || file.startsWith('.')) continue
      const summary = this.summary(file.slice(0, -SUMMARY.length))
      if (summary) summaries.push(summary)
    }
    return summaries
      .filter((summary) => setId === undefined || summary.setId === setId)
      .sort((a, b) => b.startedAt.localeCompare(a.startedAt) || b.id.localeCompare(a.id))
  }

  /** One run's summary as {@link list} gives it; undefined when absent or unreadable. */
  summary(id: string): EvalRunSummary | undefined {
    let summary: EvalRunSummary
    try {
      summary = JSON.parse(readFileSync(this.summaryFile(id), 'utf8')) as EvalRunSummary
    } catch {
      // absent, torn or hand-edited: get() reports it when asked for by id
      return undefined
    }
    if (summary.status !== 'running' || summary.pid === undefined) return summary
    if (summary.pid === process.pid) return summary
    // A pid from the file: only a process id is asked about (0 and -1 mean groups to kill()).
    if (!Number.isSafeInteger(summary.pid) || summary.pid < 1) summary.pid = 0
    if (summary.pid > 0 && processAlive(summary.pid)) return { ...summary, external: true }
    return {
      ...summary,
      status: 'failed',
      error: {
        code: 'internal',
        message: `the process that ran it (pid ${summary.pid}) ended before the run finished; ${summary.done} of ${summary.total} queries were done but not stored`,
      },
    }
  }

  /**
   * Writes the summary of a run in progress (its counts so far), for other processes on the
   * data folder to show.
   */
  saveProgress(summary: EvalRunSummary): void {
    mkdirSync(this.dir, { recursive: true })
    writeFileAtomicSync(
      this.summaryFile(summary.id),
      `${redactedJson(this.redactor, summary).text}\n`,
    )
  }

  has(id: string): boolean {
    return existsSync(this.file(id))
  }

  get(id: string): EvalRun {
    return parseStoredRun(
      readStored(this.file(id), () => notFound(id)),
      `run ${id}`,
    )
  }

  /** Writes a run (and its summary), then drops the oldest runs beyond the limit. */
  save(run: EvalRun): void {
    mkdirSync(this.dir, { recursive: true })
    // The text is written anyway: one search of it rules out a walk of every hit (~14 ms for a
    // 100-query run over five providers) when there is nothing to redact, as there mostly is.
    const { clean, text } = redactedJson(this.redactor, run)
    writeFileAtomicSync(this.file(run.summary.id), text)
    writeFileAtomicSync(this.summaryFile(run.summary.id), `${JSON.stringify(clean.summary)}\n`)
    this.prune(run.summary.id)
  }

  delete(id: string): boolean {
    if (!this.has(id)) return false
    rmSync(this.file(id), { force: true })
    rmSync(this.summaryFile(id), { force: true })
    return true
  }

  private prune(keep: string): void {
    const finished = this.list().filter((s) => s.status !== 'running' && s.id !== keep)
    for (const old of finished.slice(Math.max(0, this.limit - 1))) this.delete(old.id)
  }

  private file(id: string): string {
    if (!runIdSchema.safeParse(id).success) throw notFound(id)
    return join(this.dir, `${id}.json`)
  }

  private summaryFile(id: string): string {
    if (!runIdSchema.safeParse(id).success) throw notFound(id)
    return join(this.dir, `${id}${SUMMARY}`)
  }
}

/** Whether a process with this id exists (EPERM: it does, owned by someone else). */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

const hitSchema = z.object({
  docKey: z.string(),
  id: z.string(),
  title: z.string(),
  sourceId: z.string().optional(),
  score: z.number().optional(),
  scoreOrder: z.enum(SCORE_ORDERS).optional(),
})

const resultSchema = z.object({
  queryId: z.string(),
  profileId: z.string(),
  elapsedMs: z.number(),
  providers: z.array(
    z.looseObject({
      server: z.string(),
      ok: z.boolean(),
      latencyMs: z.number(),
      hits: z.array(hitSchema),
    }),
  ),
})

/** What the metrics and the comparison read from a run file (other fields are kept as they are). */
const runFileSchema = z.looseObject({
  version: z.literal(1),
  summary: z.looseObject({ id: z.string(), servers: z.array(z.string()) }),
  inputs: z.looseObject({ k: z.number().int().min(1).max(100), profiles: z.array(z.string()) }),
  queries: z.array(evalQuerySchema),
  results: z.array(resultSchema),
})

/** A run file's text as a run; `invalid_argument` saying where it is not one. */
export function parseStoredRun(text: string, what: string): EvalRun {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw unreadable(what, (error as Error).message)
  }
  const parsed = runFileSchema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw unreadable(what, `${issue.path.map(String).join('.') || 'the file'}: ${issue.message}`)
  }
  return parsed.data as unknown as EvalRun
}

const unreadable = (what: string, why: string): ConsoleError =>
  new ConsoleError({
    code: 'invalid_argument',
    message: `${what} cannot be read as a run (${why})`,
  })

const notFound = (id: string): ConsoleError =>
  new ConsoleError({ code: 'not_found', message: `no evaluation run with id ${id}` })
