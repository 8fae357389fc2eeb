import type { ErrorInfo } from '../errors'
import type { FusionMode, Selection } from './operations'
import type { ScoreOrder } from './rag'

/**
 * Retrieval evaluation: golden sets (queries + graded judgments), runs of a set across servers
 * and profiles, IR metrics per list, and the comparison of two runs. See docs/evaluation.md.
 */

/** Relevance grades, as in TREC qrels: 0 not relevant, 1 relevant, 2 highly, 3 perfect. */
export const GRADES = [0, 1, 2, 3] as const
export type Grade = (typeof GRADES)[number]

/** One document judged for one query. */
export interface Judgment {
  /**
   * The document's identity: the merged list's dedupe key (`dedupeKey` in `./hit-identity`),
   * so a document found by several providers is judged once.
   */
  docKey: string
  /**
   * Other keys of the same document, where the dedupe identity cannot tell (a provider that
   * gives no link, a link signed per user): any of them in a list counts as this document.
   */
  aliases?: string[] | undefined
  grade: Grade
  /** For display only: the title and link the document had when it was judged. */
  title?: string | undefined
  uri?: string | undefined
}

/** One query of a golden set. */
export interface EvalQuery {
  /** Unique within its set; also the TREC topic id (no whitespace). */
  id: string
  /** Sent exactly as written, as phrase 0. */
  query: string
  /** Up to 4 extra phrases (sent to servers that take several, as Search does). */
  phrases?: string[] | undefined
  /**
   * The profile this query runs as, whatever profiles the run names (relevance that depends on
   * who asks). Absent: the query runs as each profile of the run.
   */
  profileId?: string | undefined
  /** The servers/sources this query runs on; absent: the run's selection. */
  sources?: Selection | undefined
  judgments: Judgment[]
  notes?: string | undefined
}

/** A golden set as stored in `<dataDir>/eval/sets/<id>.json` (JSON Schema: docs/golden-set.schema.json). */
export interface GoldenSet {
  version: 1
  /** File-name safe: letters, digits, dot, dash, underscore. */
  id: string
  name: string
  description?: string | undefined
  /** ISO time of the last save (set by the console). */
  updatedAt?: string | undefined
  queries: EvalQuery[]
}

export interface GoldenSetSummary {
  id: string
  name: string
  description?: string
  updatedAt?: string
  queryCount: number
  judgmentCount: number
}

/** A document as a run keeps it: enough to judge, show and fuse it again, no payloads. */
export interface EvalHit {
  docKey: string
  /** The hit's id as the server sent it. */
  id: string
  sourceId?: string
  title: string
  uri?: string
  score?: number
  /** Present when the server's mapping says which way its score runs (a distance: lower). */
  scoreOrder?: ScoreOrder
}

/** One provider's answer to one query of a run. */
export interface EvalProviderResult {
  server: string
  ok: boolean
  error?: ErrorInfo
  latencyMs: number
  /** In rank order, at most the run's `k`. */
  hits: EvalHit[]
}

/**
 * The provider was not asked because the profile may not see it (its groups, or every selected
 * source is hidden): not a failure of the server. See `targetError`.
 */
export const hiddenFromProfile = (error: ErrorInfo | undefined): boolean =>
  error?.details?.hiddenFromProfile === true

/** One query of a run, as one profile. */
export interface EvalQueryResult {
  queryId: string
  profileId: string
  /** Wall time of the whole fan-out (the merged list's latency). */
  elapsedMs: number
  providers: EvalProviderResult[]
}

export type EvalRunStatus = 'running' | 'done' | 'cancelled' | 'failed'

/** What a run was asked to do. */
export interface EvalRunInputs {
  setId: string
  setName: string
  /** Server id → source ids as requested; absent: every visible server, remembered sources. */
  selection?: Selection
  /** The profiles the queries without a profile of their own ran as. */
  profiles: string[]
  /** Hits kept per provider and per merged list. */
  k: number
  concurrency: number
  /** Only these queries of the set; absent: all. */
  queryIds?: string[]
}

export interface EvalRunSummary {
  id: string
  setId: string
  setName: string
  status: EvalRunStatus
  startedAt: string
  finishedAt?: string
  /** (query, profile) pairs planned and done. */
  total: number
  done: number
  /** Provider calls that failed. */
  failures: number
  servers: string[]
  profiles: string[]
  k: number
  /** Why the run stopped, when it failed as a whole. */
  error?: ErrorInfo
  /** Imported from a TREC run file (one provider: its run tag) rather than run here. */
  imported?: boolean
  /**
   * While it runs: the id of the process running it. Its summary file is rewritten as it goes, so
   * another process on the data folder (the app while `rag-console eval` runs) shows its progress;
   * a running run whose process is gone is listed as failed.
   */
  pid?: number
  /** Set when listed: a process other than this one runs it (it cannot be cancelled from here). */
  external?: boolean
}

/**
 * A stored run (`<dataDir>/eval/runs/<id>.json`): its inputs, the set's queries and judgments as
 * they were when it started (so its metrics do not change when the set is edited), and per
 * (query, profile) every provider's hits, latency and error.
 */
export interface EvalRun {
  version: 1
  summary: EvalRunSummary
  inputs: EvalRunInputs
  queries: EvalQuery[]
  results: EvalQueryResult[]
}

/** The list a metric is about: one provider's own ranking, or the merged list under a fusion. */
export type EvalList = { kind: 'provider'; server: string } | { kind: 'merged'; fusion: FusionMode }

/**
 * judged@k below this: a list's metrics rest on few judgments (unjudged hits count as misses),
 * which the console says wherever it shows them.
 */
export const LOW_COVERAGE = 0.8

export const QUALITY_METRICS = ['recall', 'precision', 'mrr', 'ndcg', 'hitRate'] as const
export type QualityMetric = (typeof QUALITY_METRICS)[number]

/** Metric values of one list; quality metrics at the request's `k`, averaged over queries. */
export interface MetricValues {
  /** recall@k: relevant retrieved in the top k / relevant judged. */
  recall: number
  /** precision@k: relevant retrieved in the top k / k. */
  precision: number
  /** Mean reciprocal rank of the first relevant document (0 when none in the top k). */
  mrr: number
  /** nDCG@k with gain = grade and a log2(rank + 1) discount (trec_eval's ndcg_cut). */
  ndcg: number
  /** Share of queries with at least one relevant document in the top k. */
  hitRate: number
  /**
   * judged@k: the share of the top k that has a judgment (any grade), averaged over the judged
   * queries whose list was not empty; null when none was. Unjudged hits count as misses, so the
   * quality metrics say little when this is low.
   */
  judgedAtK: number | null
  /** Share of (query, provider) calls that failed. */
  failureRate: number
  latencyP50Ms: number
  latencyP95Ms: number
  /** Queries measured (the quality metrics average over those with a relevant judgment). */
  queries: number
  judged: number
  failed: number
}

/** One row of a metrics table. */
export interface MetricRow {
  list: EvalList
  /** The profile whose queries the row covers; absent: every profile of the run. */
  profileId?: string
  values: MetricValues
}

/** One query's values in one list (the heatmap's cells). */
export interface PerQueryMetric {
  queryId: string
  profileId: string
  list: EvalList
  recall: number
  precision: number
  /** Reciprocal rank of the first relevant document; 0 when none. */
  rr: number
  ndcg: number
  hit: boolean
  /** The provider failed (provider lists), or every provider failed (merged lists). */
  failed: boolean
  /**
   * The provider is hidden from this profile and was not asked (see {@link hiddenFromProfile}):
   * the cell is left out of the list's metrics and failure rate.
   */
  hidden?: boolean
  latencyMs: number
  /** Relevant documents judged (grade > 0) and found in the top k. */
  relevant: number
  found: number
  /** Share of the top k that has a judgment; null when the list is empty. */
  judgedAtK: number | null
}

export interface EvalMetrics {
  run: EvalRunSummary
  k: number
  rows: MetricRow[]
  perQuery: PerQueryMetric[]
}

/** One metric of one list, run A against run B, over the queries both ran. */
export interface MetricDelta {
  list: EvalList
  metric: QualityMetric
  a: number
  b: number
  /** b − a. */
  delta: number
  /** Two-sided paired randomization test (seeded, so the same runs give the same p). */
  pValue: number
  /** Paired (query, profile) observations. */
  pairs: number
}

/** A query whose nDCG@k moved between the runs, in one list. */
export interface QueryChange {
  queryId: string
  profileId: string
  query: string
  list: EvalList
  a: number
  b: number
  delta: number
}

/** A relevant document run A found in the top k that run B did not. */
export interface LostDocument {
  queryId: string
  profileId: string
  query: string
  list: EvalList
  docKey: string
  grade: Grade
  title?: string
  rankInA: number
}

export interface RunComparison {
  runA: EvalRunSummary
  runB: EvalRunSummary
  k: number
  deltas: MetricDelta[]
  /** nDCG@k up in B (largest first) and down in B (largest drop first). */
  better: QueryChange[]
  worse: QueryChange[]
  lostDocuments: LostDocument[]
}

/** A document of a pool: its grade in the set now, and where the runs found it. */
export interface PoolDocument {
  /** The set's key for it (an alias is read as the document it belongs to). */
  docKey: string
  title: string
  /** Its link (a `uri:` key without its signature), when it has one. */
  uri?: string
  /** Its grade in the set now; null: not judged yet. */
  grade: Grade | null
  /** Each (run, provider, profile) that had it in its top `depth`, with its rank there. */
  found: { runId: string; server: string; profileId: string; rank: number }[]
}

/** One query's pool, its documents by their best rank. */
export interface PoolQuery {
  queryId: string
  query: string
  documents: PoolDocument[]
}

/**
 * TREC's depth-k pool of a set over one or more runs: per query, the union of every provider's
 * top `depth`, with what the set says about each document now.
 */
export interface EvalPool {
  setId: string
  depth: number
  runIds: string[]
  queries: PoolQuery[]
  /** Documents in the pool, and those of them with a grade. */
  size: number
  judged: number
  /** judged@depth of each list of each run against the set as it is now, over its queries. */
  coverage: { runId: string; list: EvalList; judgedAtK: number | null }[]
}

/** A pool document's words, asked again of the server that found it. */
export interface PoolDocumentText {
  docKey: string
  title?: string
  text?: string
  uri?: string
  /** Why there is no text (the server failed, no longer returns it, an imported run). */
  unavailable?: string
}
