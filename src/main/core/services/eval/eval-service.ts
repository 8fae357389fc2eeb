import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import type { EvaluationResults } from '../../../../shared/ipc/evaluation'
import type {
  EvalList,
  EvalMetrics,
  EvalRun,
  EvalRunSummary,
  GoldenSet,
  RunComparison,
} from '../../../../shared/model/evaluation'
import type { Selection } from '../../../../shared/model/operations'
import type { Redactor } from '../../secrets/types'
import type { EventBus } from '../../events'
import { compareRuns } from './compare'
import { runMetrics } from './run-metrics'
import { RunStore } from './run-store'
import { EvalRunner, type EvalRunnerDeps } from './runner'
import { GoldenSetStore, summarize, type JudgeRequest } from './set-store'
import { mergeQrels, runFromTrec, runToTrec } from './trec-files'
import { formatQrels } from './trec'

export interface EvalServiceDeps extends Omit<EvalRunnerDeps, 'runs'> {
  /** `<dataDir>/eval`: `sets/` and `runs/` below it. */
  dir: string
  redactor: Redactor
  events: EventBus
  /** The demo corpus's golden set, offered on first use (absent: none is offered). */
  demoSet?: () => GoldenSet | undefined
}

/** What `eval:run` takes. */
export interface StartRunRequest {
  runId?: string
  setId: string
  selection?: Selection
  profiles?: string[]
  k?: number
  concurrency?: number
  queryIds?: string[]
}

/**
 * Retrieval evaluation: golden sets and runs in the data folder, runs through the search
 * service, metrics and comparisons computed from the stored runs.
 */
export class EvalService {
  readonly sets: GoldenSetStore
  readonly runs: RunStore
  readonly runner: EvalRunner

  constructor(private readonly deps: EvalServiceDeps) {
    this.sets = new GoldenSetStore(join(deps.dir, 'sets'), deps.redactor, deps.demoSet)
    this.runs = new RunStore(join(deps.dir, 'runs'), deps.redactor)
    this.runner = new EvalRunner({ ...deps, runs: this.runs })
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
    name?: string
    text: string
    topics?: string
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

  dispose(): Promise<void> {
    return this.runner.dispose()
  }

  private changed(set: GoldenSet): GoldenSet {
    this.deps.events.emit('eval:sets-changed', { setId: set.id })
    return set
  }
}
