import type { GoldenSet, Grade } from '#shared/model/evaluation'
import { evalIdSchema } from '#shared/model/golden-set-schema'
import { rankTrec } from './trec-eval'

/**
 * TREC files, as trec_eval and ranx read them:
 * - qrels: `qid iter docno rel` per line (iter is ignored, written as 0);
 * - run: `qid Q0 docno rank score tag` per line;
 * - topics (the console's own plain form): `qid<TAB>query text` per line.
 * A docno is the document key (`uri:…` / `id:…`) with `%` and whitespace percent-encoded, so it
 * stays one field; a docno without such a prefix (another tool's collection) reads as `id:docno`.
 */

/** Lines a reader could not read: how many, and the first {@link NAMED_LINES} (1-based). */
export interface Skipped {
  skipped: number
  skippedLines: number[]
}

/** Skipped lines named by number; the rest are counted. */
export const NAMED_LINES = 20

/** Parsed judgments: query id → document key → grade; unreadable lines are counted. */
export interface ParsedQrels extends Skipped {
  queries: Map<string, Map<string, Grade>>
}

/** A parsed run: query id → document keys best first; the first tag seen names it. */
export interface ParsedRun extends Skipped {
  tag: string
  queries: Map<string, string[]>
}

export function encodeDocno(docKey: string): string {
  return docKey.replace(/[%\s]/gu, encodeURIComponent)
}

export function decodeDocno(docno: string): string | undefined {
  let key: string
  try {
    key = decodeURIComponent(docno)
  } catch {
    return undefined
  }
  return /^(uri|id):./.test(key) ? key : `id:${key}`
}

/** A set's judgments as qrels, queries and documents in the set's order. */
export function formatQrels(set: GoldenSet): string {
  const lines: string[] = []
  for (const query of set.queries) {
    for (const { docKey, grade } of query.judgments) {
      lines.push(`${query.id} 0 ${encodeDocno(docKey)} ${grade}`)
    }
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : ''
}

/**
 * Reads qrels. Grades outside 0..3 are clamped (TREC collections use −1 for "not relevant"
 * and some use 4); a document judged twice for one query keeps its last grade.
 */
export function parseQrels(text: string): ParsedQrels {
  const queries = new Map<string, Map<string, Grade>>()
  const bad = skips()
  for (const [fields, line] of lines(text)) {
    const [qid, , docno, rel] = fields
    const docKey = fields.length === 4 ? decodeDocno(docno!) : undefined
    const grade = Number(rel)
    if (!docKey || !Number.isFinite(grade) || !isId(qid!)) {
      bad.add(line)
      continue
    }
    const judged = queries.get(qid!) ?? new Map<string, Grade>()
    judged.set(docKey, Math.min(3, Math.max(0, Math.round(grade))) as Grade)
    queries.set(qid!, judged)
  }
  return { queries, ...bad.result }
}

/** Reads `qid<TAB>text` topics; lines without a tab are skipped. */
export function parseTopics(text: string): { topics: Map<string, string>; skipped: number } {
  const topics = new Map<string, string>()
  let skipped = 0
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue
    const tab = line.indexOf('\t')
    const qid = line.slice(0, tab).trim()
    const query = line.slice(tab + 1).trim()
    if (tab < 0 || !isId(qid) || query === '') skipped++
    else topics.set(qid, query)
  }
  return { topics, skipped }
}

/**
 * A run file for ranked lists (each deduplicated). The score is `n − rank + 1`, strictly falling,
 * because trec_eval orders by score: it then sees the console's order, whatever the servers'
 * own scores were.
 */
export function formatRun(lists: { queryId: string; docKeys: string[] }[], tag: string): string {
  const name = tag.replace(/\s+/g, '_') || 'run'
  const out: string[] = []
  for (const { queryId, docKeys } of lists) {
    const unique = [...new Set(docKeys)]
    unique.forEach((key, index) => {
      out.push(`${queryId} Q0 ${encodeDocno(key)} ${index + 1} ${unique.length - index} ${name}`)
    })
  }
  return out.length > 0 ? `${out.join('\n')}\n` : ''
}

/**
 * Reads a run file; each query's documents are ordered as trec_eval orders them: by score, best
 * first, a tie broken by docno, descending (the rank column is ignored, as is text after the tag).
 */
export function parseRun(text: string): ParsedRun {
  const scored = new Map<string, { key: string; docno: string; score: number }[]>()
  let tag: string | undefined
  const bad = skips()
  for (const [fields, line] of lines(text)) {
    const [qid, , docno, , score, name] = fields
    const docKey = fields.length >= 6 ? decodeDocno(docno!) : undefined
    if (!docKey || !isId(qid!) || !Number.isFinite(Number(score))) {
      bad.add(line)
      continue
    }
    tag ??= name
    const list = scored.get(qid!) ?? []
    list.push({ key: docKey, docno: docno!, score: Number(score) })
    scored.set(qid!, list)
  }
  const queries = new Map<string, string[]>()
  for (const [qid, list] of scored) {
    const keys = new Map(list.map(({ docno, key }) => [docno, key]))
    queries.set(qid, [...new Set(rankTrec(list).map((docno) => keys.get(docno)!))])
  }
  return { tag: tag ?? 'run', queries, ...bad.result }
}

/** The non-empty lines' fields, each with its 1-based line number. */
function* lines(text: string): Generator<[string[], number]> {
  let number = 0
  for (const line of text.split(/\r?\n/)) {
    number++
    if (line.trim() !== '') yield [line.trim().split(/\s+/), number]
  }
}

/** Counts skipped lines and keeps the numbers of the first ones. */
function skips(): { add: (line: number) => void; result: Skipped } {
  const result: Skipped = { skipped: 0, skippedLines: [] }
  return {
    add: (line) => {
      result.skipped++
      if (result.skippedLines.length < NAMED_LINES) result.skippedLines.push(line)
    },
    result,
  }
}

/** Query ids become set query ids: the golden set's id rule. */
const isId = (qid: string): boolean => evalIdSchema.safeParse(qid).success
