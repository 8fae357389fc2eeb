import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import { ConsoleError } from '#shared/errors'
import type { EvaluationResults, PoolDocumentRequest } from '#shared/ipc/evaluation'
import type {
  EvalList,
  EvalMetrics,
  EvalPool,
  EvalQuery,
  EvalRun,
  EvalRunSummary,
  GoldenSet,
  PoolDocumentText,
  RunComparison,
} from '#shared/model/evaluation'
import { dedupeKey } from '#shared/model/hit-identity'
import type { Selection, ServerSearchResult } from '#shared/model/operations'
import { planTargets } from '../plan'
import { poolOf } from './pool'
import type { Redactor } from '../../secrets/types'
import type { EventBus } from '../../events'
import { compareRuns } from './compare'
import { runMetrics } from './run-metrics'
import { RunStore } from './run-store'
import { RunWatcher } from './run-watcher'
import { EvalRunner, type EvalRunnerDeps } from './runner'
import { GoldenSetStore, summarize, type JudgeRequest } from './set-store'
import { mergeQrels, runFromTrec, runToTrec } from './trec-files'
import { formatQrels } from './trec'

export interface EvalServiceDeps extends Omit<EvalRunnerDeps, 'runs'> {
  /** `<dataDir>/eval`: `sets/` and `runs/` below it. */
  dir: string
  /**
   * Follow the runs folder, announcing the runs of other processes on the same data folder
   * (`rag-console eval`) as they start, progress and end (hosts say true; the CLI does not).
   */
  watch?: boolean
  redactor: Redactor
  events: EventBus
  /** The demo corpus's golden set, offered on first use (absent: none is offered). */
  demoSet?: () => GoldenSet | undefined
}

/** The last answers kept for pool documents' texts. */
const TEXT_ANSWERS = 8
/** A pool document's text is cut here. */
const MAX_TEXT = 20_000

const notInRun = (runId: string, what: string): ConsoleError =>
  new ConsoleError({ code: 'not_found', message: `run ${runId} has no ${what}` })

/** What `eval:run` takes. */
export interface StartRunRequest {
  runId?: string | undefined
  setId: string
  selection?: Selection | undefined
  profiles?: string[] | undefined
  k?: number | undefined
  concurrency?: number | undefined
  queryIds?: string[] | undefined
}

/**
 * Retrieval evaluation: golden sets and runs in the data folder, runs through the search
 * service, metrics and comparisons computed from the stored runs.
 */
export class EvalService {
  readonly sets: GoldenSetStore
  readonly runs: RunStore
  readonly runner: EvalRunner

  private readonly watcher: RunWatcher | undefined
  /** Recent searches for pool documents' texts, by (run, query, profile, server). */
  private readonly texts = new Map<string, Promise<ServerSearchResult>>()
  /** Runs imported here (their files are this process's own). */
  private readonly imported = new Set<string>()

  constructor(private readonly deps: EvalServiceDeps) {
    this.sets = new GoldenSetStore(join(deps.dir, 'sets'), deps.redactor, deps.demoSet)
    this.runs = new RunStore(join(deps.dir, 'runs'), deps.redactor)
    this.runner = new EvalRunner({ ...deps, runs: this.runs })
    if (deps.watch) {
      this.watcher = new RunWatcher(
        join(deps.dir, 'runs'),
        this.runs,
        deps.events,
        (id) => this.runner.owns(id) || this.imported.has(id),
      )
    }
  }

  saveSet(set: GoldenSet): GoldenSet {
    return this.changed(this.sets.save(set))
  }

  deleteSet(id: string): boolean {
    const deleted = this.sets.delete(id)
    if (deleted) this.deps.events.emit('eval:sets-changed', { setId: id })
    return deleted
  }

  addDemoSet(): GoldenSet {
    return this.changed(this.sets.addDemo())
  }

  judge(request: JudgeRequest): EvaluationResults['eval:judge'] {
    const { set, queryId, judgment } = this.sets.judge(request)
    this.changed(set)
    return { set: summarize(set), queryId, judgment }
  }

  /** Starts a run of a stored set (see {@link EvalRunner.start}). */
  startRun(request: StartRunRequest): Promise<{ summary: EvalRunSummary; done: Promise<EvalRun> }> {
    const { setId, ...rest } = request
    return this.runner.start({ ...rest, set: this.sets.peek(setId) })
  }

  /** Runs in progress, then the stored ones, newest first (of one set, or all). */
  listRuns(setId?: string): EvalRunSummary[] {
    const running = this.runner
      .inProgress()
      .filter((run) => setId === undefined || run.setId === setId)
    const ids = new Set(running.map((run) => run.id))
    return [...running, ...this.runs.list(setId).filter((run) => !ids.has(run.id))]
  }

  metrics(runId: string, k?: number): EvalMetrics {
    return runMetrics(this.runs.get(runId), k)
  }

  compare(runA: string, runB: string, k?: number): RunComparison {
    return compareRuns(this.runs.get(runA), this.runs.get(runB), k)
  }

  importQrels(request: {
    setId: string
    name?: string | undefined
    text: string
    topics?: string | undefined
  }): EvaluationResults['eval:import-trec'] {
    const base: GoldenSet = this.sets.has(request.setId)
      ? this.sets.get(request.setId)
      : { version: 1, id: request.setId, name: request.name ?? request.setId, queries: [] }
    const { set, skipped, skippedLines } = mergeQrels(base, request.text, request.topics)
    return { kind: 'qrels', set: summarize(this.saveSet(set)), skipped, skippedLines }
  }

  importRun(setId: string, text: string): EvaluationResults['eval:import-trec'] {
    const set = this.sets.get(setId)
    const id = `trec-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`
    const { run, skipped, skippedLines } = runFromTrec(set, text, id, new Date())
    this.imported.add(id)
    this.runs.save(run)
    this.deps.events.emit('eval:run-finished', { run: run.summary })
    return { kind: 'run', run: run.summary, skipped, skippedLines }
  }

  exportQrels(setId: string): EvaluationResults['eval:export-trec'] {
    return {
      fileName: `${setId}.qrels`,
      mime: 'text/plain',
      text: formatQrels(this.sets.get(setId)),
    }
  }

  exportRun(
    runId: string,
    list: EvalList,
    profileId?: string,
  ): EvaluationResults['eval:export-trec'] {
    const name = list.kind === 'provider' ? list.server : `merged-${list.fusion}`
    return {
      fileName: `${runId}.${name.replace(/[^\w.-]+/g, '_')}.run`,
      mime: 'text/plain',
      text: runToTrec(this.runs.get(runId), list, profileId),
    }
  }

  /** The depth-k pool of a set over runs of it (depth: default the smallest k they kept). */
  pool(setId: string, runIds: readonly string[], depth?: number): EvalPool {
    const set = this.sets.get(setId)
    const runs = runIds.map((id) => this.runs.get(id))
    const other = runs.find((run) => run.summary.setId !== setId)
    if (other) {
      throw new ConsoleError({
        code: 'invalid_argument',
        message: `run ${other.summary.id} is a run of golden set ${other.summary.setId}, not of ${setId}: pool runs of the same set`,
      })
    }
    return poolOf(set, runs, depth ?? Math.min(...runs.map((run) => run.inputs.k)))
  }

  /**
   * A pool document's words and link: its query searched again, as the profile and on the server
   * of the run that found it (once per query, profile and server while judging goes on).
   */
  async poolDocument(request: PoolDocumentRequest): Promise<PoolDocumentText> {
    const { runId, queryId, profileId, server, docKey } = request
    const run = this.runs.get(runId)
    const unavailable = (why: string): PoolDocumentText => ({ docKey, unavailable: why })
    if (run.summary.imported) {
      return unavailable('this run was imported from a TREC file: there is no server to ask')
    }
    const query = run.queries.find((q) => q.id === queryId)
    if (!query) throw notInRun(runId, `query ${queryId}`)
    const key = JSON.stringify([runId, queryId, profileId, server])
    let answer = this.texts.get(key)
    if (!answer) {
      answer = this.searchAgain(run, query, profileId, server)
      this.texts.set(key, answer)
      // The last few (query, profile, server) answers: a query's documents are judged together.
      for (const old of [...this.texts.keys()].slice(0, -TEXT_ANSWERS)) this.texts.delete(old)
      answer.catch(() => this.texts.delete(key))
    }
    const result = await answer
    if (!result.ok) return unavailable(`${server}: ${result.error?.message ?? 'the search failed'}`)
    const aliases = new Set([
      docKey,
      ...(query.judgments.find((j) => j.docKey === docKey)?.aliases ?? []),
    ])
    const hit = result.hits.find((h) => aliases.has(dedupeKey(h)))
    if (!hit) {
      return unavailable(
        `${server} no longer returns this document for “${query.query}” as ${profileId}: open its link to read it`,
      )
    }
    return {
      docKey,
      title: hit.title,
      text: (hit.text ?? hit.snippet).slice(0, MAX_TEXT),
      ...(hit.uri ? { uri: hit.uri } : {}),
    }
  }

  private async searchAgain(
    run: EvalRun,
    query: EvalQuery,
    profileId: string,
    server: string,
  ): Promise<ServerSearchResult> {
    const active = this.deps.activeProfile()
    let profile = active
    if (profileId !== active.id) {
      try {
        profile = this.deps.profile(profileId)
      } catch {
        throw new ConsoleError({
          code: 'not_found',
          message: `run ${run.summary.id} ran as profile "${profileId}", which is not saved here: add it (Profiles) to read the documents it found`,
        })
      }
    }
    const sources =
      run.inputs.selection?.[server] ??
      query.sources?.[server] ??
      planTargets(this.deps, profile).find((target) => target.server === server)?.sources ??
      []
    const result = await this.deps.search.run({
      searchId: `pool-${randomBytes(4).toString('hex')}`,
      query: query.query,
      ...(query.phrases ? { phrases: query.phrases } : {}),
      topK: run.inputs.k,
      selection: { [server]: sources },
      profile,
      quiet: true,
    })
    const answer = result.servers.find((s) => s.server === server)
    if (!answer) throw notInRun(run.summary.id, `server ${server}`)
    return answer
  }

  dispose(): Promise<void> {
    this.watcher?.close()
    return this.runner.dispose()
  }

  private changed(set: GoldenSet): GoldenSet {
    this.deps.events.emit('eval:sets-changed', { setId: set.id })
    return set
  }
}
