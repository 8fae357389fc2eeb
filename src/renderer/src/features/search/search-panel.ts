import type { MergedHit, ServerSearchResult } from '#shared/model/operations'
import type { Hit, Violation } from '#shared/model/rag'
import { hitKey } from './hit-key'
import type { SearchRun } from './search-run'
import { takesPart, type ServerSources } from './sources'

/**
 * The Search panel's choices, worked out from the run and the sources: which servers a search
 * runs on (and why Run waits when none), which hit the inspector shows, and what of its reply
 * the inspector adds.
 */

/** The servers a search runs on: those that take part and were not left out of it. */
export const takingPart = (
  servers: readonly ServerSources[],
  excluded: ReadonlySet<string>,
): string[] => servers.filter((s) => takesPart(s) && !excluded.has(s.server)).map((s) => s.server)

/** Why Run waits: the sources are known and no server takes part. */
export const runBlockedReason = (
  discovered: boolean,
  taking: readonly string[],
): string | undefined =>
  discovered && taking.length === 0 ? 'No source is selected: turn some on in Servers' : undefined

/**
 * The hit the inspector shows: the merged one (it knows where it was found) when the merged list
 * has it, else a server's own; none once the run no longer holds it.
 */
export function inspectedHit(
  inspected: string | null,
  run: SearchRun | null,
  merged: readonly MergedHit[] | undefined,
): Hit | null {
  if (!inspected || !run) return null
  const lists = [merged ?? [], ...run.servers.map((s) => s.hits)]
  for (const hits of lists) {
    const hit = hits.find((h) => hitKey(h) === inspected)
    if (hit) return hit
  }
  return null
}

/** The part of the run that carried `hit`: its server's. */
export const replyOf = (run: SearchRun | null, hit: Hit | null): ServerSearchResult | undefined =>
  hit ? run?.servers.find((s) => s.server === hit.server) : undefined

/**
 * The violations of a reply that are not about one of its hits (the envelope, a count): the
 * inspector shows them under the hit's own.
 */
export function replyViolations(reply: ServerSearchResult | undefined): Violation[] {
  if (!reply) return []
  const onHits = new Set(reply.hits.flatMap((h) => h.violations.map((v) => v.path)))
  return reply.violations.filter((v) => !onHits.has(v.path))
}
