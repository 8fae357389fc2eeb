import { z } from 'zod'
import type {
  EvalMetrics,
  EvalPool,
  EvalRun,
  EvalRunSummary,
  GoldenSet,
  GoldenSetSummary,
  Judgment,
  PoolDocumentText,
  RunComparison,
} from '../model/evaluation'
import { FUSION_MODES } from '../model/operations'
import {
  docKeySchema,
  evalIdSchema,
  goldenSetSchema,
  gradeSchema,
  runIdSchema,
  selectionSchema,
} from '../model/golden-set-schema'

const runId = runIdSchema
const profileId = z.string().min(1).max(128)
const k = z.number().int().min(1).max(100)
const fusion = z.enum(FUSION_MODES)

/** Which list of a run: one provider's own ranking, or the merged list under a fusion mode. */
const listSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('provider'), server: z.string().min(1).max(256) }),
  z.object({ kind: z.literal('merged'), fusion }),
])

/** A TREC file's text (qrels or run), at most 20 MB. */
const trecText = z.string().max(20_000_000)

/** Retrieval evaluation: golden sets, runs, metrics, comparison, TREC files. */
export const evaluationRequests = {
  /** Every saved golden set (a summary each), by name. */
  'eval:sets': z.undefined(),
  'eval:set:get': z.object({ id: evalIdSchema }),
  /** Creates or replaces a set (matched by id); the console stamps `updatedAt`. */
  'eval:set:save': goldenSetSchema,
  'eval:set:delete': z.object({ id: evalIdSchema }),
  /** Adds the demo corpus's golden set (again), e.g. after it was deleted. */
  'eval:set:add-demo': z.undefined(),
  /**
   * Judges one document for one query from Search: creates the set (named `setName`) and the
   * query when missing; the query is found by `queryId`, else by its text and profile. `grade:
   * null` removes the judgment.
   */
  'eval:judge': z.object({
    setId: evalIdSchema,
    setName: z.string().trim().min(1).max(200).optional(),
    queryId: evalIdSchema.optional(),
    query: z.string().min(1).max(4000),
    profileId: profileId.optional(),
    docKey: docKeySchema,
    grade: gradeSchema.nullable(),
    title: z.string().max(1000).optional(),
    uri: z.string().max(8192).optional(),
  }),
  /**
   * Starts a run of a set and resolves at once with its summary (status `running`); progress
   * arrives as `eval:progress`, the end as `eval:run-finished`.
   */
  'eval:run': z.object({
    runId: runId.optional(),
    setId: evalIdSchema,
    /** Server id → source ids; omitted: every visible server with its remembered sources. */
    selection: selectionSchema.optional(),
    /** Profiles to run the queries without a profile of their own as; default the active one. */
    profiles: z.array(profileId).min(1).max(50).optional(),
    /** Hits kept per provider and merged list (default 10). */
    k: k.optional(),
    /** (query, profile) pairs in flight at once (default 4). */
    concurrency: z.number().int().min(1).max(32).optional(),
    queryIds: z.array(evalIdSchema).min(1).max(5000).optional(),
  }),
  /** Stops a running run: it ends `cancelled`, keeping the queries that were done. */
  'eval:cancel': z.object({ runId }),
  /** Stored runs, newest first (of one set, or all). */
  'eval:runs': z.object({ setId: evalIdSchema.optional() }).optional(),
  'eval:run:get': z.object({ runId }),
  'eval:run:delete': z.object({ runId }),
  /** Metric table (per provider, per merged fusion, per profile) and per-query values at k. */
  'eval:metrics': z.object({ runId, k: k.optional() }),
  /** Run A against run B: deltas with p-values, better/worse queries, lost documents. */
  'eval:compare': z.object({ runA: runId, runB: runId, k: k.optional() }),
  /**
   * Imports TREC files: `qrels` (with optional `topics`, lines `qid<TAB>query text`) into a new
   * or existing set; `run` as a stored run of an existing set (one provider named by its tag).
   */
  'eval:import-trec': z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('qrels'),
      text: trecText,
      topics: trecText.optional(),
      setId: evalIdSchema,
      name: z.string().trim().min(1).max(200).optional(),
    }),
    z.object({ kind: z.literal('run'), text: trecText, setId: evalIdSchema }),
  ]),
  /**
   * TREC's depth-k pool of a set over runs of it: per query, the union of every provider's top
   * `depth` (default: the smallest k the runs kept), each document with its grade in the set now,
   * and judged@depth of each list of each run against the set now.
   */
  'eval:pool': z.object({
    setId: evalIdSchema,
    runIds: z.array(runId).min(1).max(20),
    depth: k.optional(),
  }),
  /**
   * A pool document's words and link: its query searched again as the profile, on the server,
   * of the run that found it. `unavailable` says why there are none.
   */
  'eval:pool:document': z.object({
    runId,
    queryId: evalIdSchema,
    profileId,
    server: z.string().min(1).max(256),
    docKey: docKeySchema,
  }),
  /** A set's judgments as TREC qrels, or one list of a run as a TREC run file. */
  'eval:export-trec': z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('qrels'), setId: evalIdSchema }),
    z.object({
      kind: z.literal('run'),
      runId,
      list: listSchema,
      /** Runs with several profiles: whose results (default: the run's only profile). */
      profileId: profileId.optional(),
    }),
  ]),
}

export interface EvaluationResults {
  'eval:sets': GoldenSetSummary[]
  'eval:set:get': GoldenSet
  'eval:set:save': GoldenSet
  'eval:set:delete': { deleted: boolean }
  'eval:set:add-demo': GoldenSet
  'eval:judge': { set: GoldenSetSummary; queryId: string; judgment: Judgment | null }
  'eval:run': EvalRunSummary
  'eval:cancel': { cancelled: boolean }
  'eval:runs': EvalRunSummary[]
  'eval:run:get': EvalRun
  'eval:run:delete': { deleted: boolean }
  'eval:metrics': EvalMetrics
  'eval:compare': RunComparison
  /**
   * `skipped`: lines and entries left out; `skippedLines`: the first 20 lines of the file
   * (qrels or run, 1-based) that could not be read.
   */
  'eval:import-trec':
    | { kind: 'qrels'; set: GoldenSetSummary; skipped: number; skippedLines: number[] }
    | { kind: 'run'; run: EvalRunSummary; skipped: number; skippedLines: number[] }
  'eval:pool': EvalPool
  'eval:pool:document': PoolDocumentText
  'eval:export-trec': { fileName: string; mime: string; text: string }
}

export type PoolDocumentRequest = z.infer<(typeof evaluationRequests)['eval:pool:document']>

export interface EvaluationEvents {
  /** A run started, here or in another process on the same data folder (`rag-console eval`). */
  'eval:run-started': { run: EvalRunSummary }
  /**
   * One (query, profile) of a running run is done; a run of another process reports its counts
   * as its summary file changes (without `queryId` and `profileId`).
   */
  'eval:progress': {
    runId: string
    done: number
    total: number
    failures: number
    queryId?: string
    profileId?: string
  }
  /** A run ended: done, cancelled or failed (its summary says which). */
  'eval:run-finished': { run: EvalRunSummary }
  /** A set was saved, judged, imported or deleted. */
  'eval:sets-changed': { setId: string }
}
