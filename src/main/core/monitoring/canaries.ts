import type { CanaryConfig, ServerConfig } from '#shared/config/schema'
import { toErrorInfo, type ErrorCode } from '#shared/errors'
import type { SearchResult, ServerSearchResult } from '#shared/model/operations'
import type { AccessCheck, Hit } from '#shared/model/rag'
import type { AccessTarget } from '../services/access-service'
import type { SearchRun } from '../services/search-service'

/** Hits a canary asks for when its expectations name no larger `k`. */
const CANARY_TOP_K = 10

/** One expectation that did not hold, in words. */
export interface CanaryFailure {
  /** `error` when the search itself failed. */
  expectation: 'minHits' | 'docInTopK' | 'maxLatencyMs' | 'verifyCitation' | 'error'
  message: string
  code?: ErrorCode
}

/** One run of one canary. */
export interface CanaryResult {
  server: string
  /** The canary's name, else its query. */
  canary: string
  passed: boolean
  failures: CanaryFailure[]
  hits: number
  latencyMs: number
  at: number
}

/** The operations a canary needs: a search of one server and a citation check. */
export interface CanaryServices {
  search(request: SearchRun): Promise<SearchResult>
  verify(target: AccessTarget): Promise<AccessCheck>
  now?: () => number
}

/**
 * The label of each canary of a server: its name, else its query; a label used twice gets
 * ` #2`, ` #3`, … so metrics and regressions never mix two canaries up.
 */
export function canaryNames(canaries: readonly CanaryConfig[]): string[] {
  const seen = new Map<string, number>()
  return canaries.map((canary) => {
    const label = canary.name ?? canary.query
    const count = (seen.get(label) ?? 0) + 1
    seen.set(label, count)
    return count === 1 ? label : `${label} #${count}`
  })
}

let nextId = 0

/** Runs one canary of a server and judges every expectation it has. Never throws. */
export async function runCanary(
  services: CanaryServices,
  server: ServerConfig,
  canary: CanaryConfig,
  name: string = canary.name ?? canary.query,
): Promise<CanaryResult> {
  const now = services.now ?? Date.now
  const expect = canary.expect ?? {}
  const base = { server: server.id, canary: name }
  const topK = Math.max(CANARY_TOP_K, expect.docInTopK?.k ?? 0, expect.minHits ?? 0)
  let part: ServerSearchResult | undefined
  try {
    const result = await services.search({
      searchId: `canary-${server.id}-${++nextId}`,
      query: canary.query,
      topK,
      selection: { [server.id]: [] },
      // Its hits (raw payloads and all) are for judging here: no page shows them.
      quiet: true,
    })
    part = result.servers.find((s) => s.server === server.id)
  } catch (error) {
    const info = toErrorInfo(error)
    return finish({ ...base, hits: 0, latencyMs: 0 }, now, [
      { expectation: 'error', message: info.message, code: info.code },
    ])
  }
  if (!part || !part.ok) {
    const message = part?.error?.message ?? `server ${server.id} was not searched`
    return finish({ ...base, hits: 0, latencyMs: part?.latencyMs ?? 0 }, now, [
      { expectation: 'error', message, ...(part?.error ? { code: part.error.code } : {}) },
    ])
  }
  const failures: CanaryFailure[] = []
  const { hits } = part
  if (expect.minHits !== undefined && hits.length < expect.minHits) {
    failures.push({
      expectation: 'minHits',
      message: `${hits.length} hit(s), expected at least ${expect.minHits}`,
    })
  }
  if (expect.docInTopK) {
    const { doc, k } = expect.docInTopK
    const rank = hits.findIndex((hit) => isDoc(hit, doc))
    if (rank < 0 || rank >= k) {
      failures.push({
        expectation: 'docInTopK',
        message:
          rank < 0
            ? `"${doc}" is not among the ${hits.length} hit(s), expected in the top ${k}`
            : `"${doc}" is at rank ${rank + 1}, expected in the top ${k}`,
      })
    }
  }
  if (expect.maxLatencyMs !== undefined && part.latencyMs > expect.maxLatencyMs) {
    failures.push({
      expectation: 'maxLatencyMs',
      message: `took ${Math.round(part.latencyMs)} ms, expected at most ${expect.maxLatencyMs} ms`,
    })
  }
  if (expect.verifyCitation) {
    const failure = await citationFailure(services, server.id, hits, expect.verifyCitation)
    if (failure) failures.push(failure)
  }
  return finish({ ...base, hits: hits.length, latencyMs: part.latencyMs }, now, failures)
}

async function citationFailure(
  services: CanaryServices,
  server: string,
  hits: Hit[],
  which: true | string,
): Promise<CanaryFailure | undefined> {
  const hit = which === true ? hits[0] : hits.find((h) => isDoc(h, which))
  if (!hit) {
    return {
      expectation: 'verifyCitation',
      message: which === true ? 'no hit to verify' : `"${which}" is not among the hits to verify`,
    }
  }
  try {
    const check = await services.verify({
      server,
      segmentId: hit.id,
      ...(hit.uri ? { url: hit.uri } : {}),
    })
    if (check.verdict === 'ok') return undefined
    return {
      expectation: 'verifyCitation',
      message: `the citation of "${hit.title || hit.id}" does not verify: ${check.verdict} (${check.explanation})`,
    }
  } catch (error) {
    const info = toErrorInfo(error)
    return { expectation: 'verifyCitation', message: info.message, code: info.code }
  }
}

/**
 * Whether a hit is the document a canary names: by id, title, file name, link, or the last
 * segment of the link's path (`hb-pto-policy` for `https://docs/…/hb-pto-policy?sig=…`).
 */
function isDoc(hit: Hit, doc: string): boolean {
  if ([hit.id, hit.title, hit.fileName, hit.uri].includes(doc)) return true
  return hit.uri !== undefined && lastSegment(hit.uri) === doc
}

function lastSegment(uri: string): string | undefined {
  try {
    return new URL(uri).pathname.split('/').filter(Boolean).at(-1)
  } catch {
    return undefined
  }
}

function finish(
  result: Omit<CanaryResult, 'passed' | 'failures' | 'at'>,
  now: () => number,
  failures: CanaryFailure[],
): CanaryResult {
  return { ...result, passed: failures.length === 0, failures, at: now() }
}
