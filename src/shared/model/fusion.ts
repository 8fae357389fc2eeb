import type { FusionMode, MergedHit } from './operations'
import { dedupeKey } from './hit-identity'
import type { Hit } from './rag'

export { dedupeKey }

/** Reciprocal rank fusion constant (Cormack et al.): damps the weight of top ranks. */
export const RRF_K = 60

interface Occurrence {
  hit: Hit
  server: string
  rank: number
  /** Per-mode contribution of this occurrence. */
  value: number
}

/**
 * Merges per-server hit lists into one ranked list. Duplicates across (and within) servers
 * collapse into one hit that remembers everywhere it was found and carries the flags of every
 * copy (so it is suspicious when any copy is). Modes:
 * - `rrf`: Σ 1 / (k + rank) over the lists a hit appears in (default; needs no scores);
 * - `score`: the best raw score (hits without a score go last); a distance (`scoreOrder:
 *   lower-is-better`) counts as its negative, so the nearest hit is the best;
 * - `minmax`: each server's scores scaled to 0..1 (the best score of the list 1, a distance's
 *   smallest), best kept.
 * A list's ranks are its order as the provider gave it: a mapping that says which way its score
 * runs has already ordered its hits by it, best first.
 */
export function fuseHits(
  lists: { server: string; hits: Hit[] }[],
  mode: FusionMode = 'rrf',
  k = RRF_K,
): MergedHit[] {
  const groups = new Map<string, Occurrence[]>()
  for (const { server, hits } of lists) {
    const scale = minMax(hits)
    hits.forEach((hit, index) => {
      const rank = index + 1
      const value =
        mode === 'rrf'
          ? 1 / (k + rank)
          : mode === 'score'
            ? hit.score === undefined
              ? Number.NEGATIVE_INFINITY
              : better(hit) * hit.score
            : scale(hit)
      const key = dedupeKey(hit)
      const group = groups.get(key)
      if (group) group.push({ hit, server, rank, value })
      else groups.set(key, [{ hit, server, rank, value }])
    })
  }

  const merged = [...groups.values()].map((occurrences) => {
    const best = [...occurrences].sort((a, b) => b.value - a.value || a.rank - b.rank)[0]!
    const fusedScore =
      mode === 'rrf'
        ? uniqueByServerSum(occurrences)
        : Math.max(...occurrences.map((occurrence) => occurrence.value))
    const foundIn = occurrences.map(({ hit, server, rank }) => placeOf(hit, server, rank))
    // A flag on any copy holds for the document: one poisoned passage is enough to warn.
    const flags = [...new Set(occurrences.flatMap(({ hit }) => hit.flags))]
    return { ...best.hit, flags, rank: 0, fusedScore, foundIn, bestRank: best.rank }
  })

  merged.sort(
    (a, b) =>
      b.fusedScore - a.fusedScore ||
      a.bestRank - b.bestRank ||
      a.server.localeCompare(b.server) ||
      a.id.localeCompare(b.id),
  )
  return merged.map(({ bestRank: _bestRank, ...hit }, index) => ({ ...hit, rank: index + 1 }))
}

/**
 * A search's merged list: the hits of the servers that answered, fused, cut to `topK`. Main
 * merges with it, and the renderer re-merges with it when the user changes the fusion.
 */
export function mergeResults(
  servers: readonly { server: string; ok: boolean; hits: Hit[] }[],
  mode: FusionMode,
  topK: number,
): MergedHit[] {
  const lists = servers.filter((s) => s.ok).map(({ server, hits }) => ({ server, hits }))
  return fuseHits(lists, mode).slice(0, topK)
}

/**
 * Merged hits with where each was found, from the servers' own lists: every copy in the lists
 * of the servers that answered, as {@link mergeResults} lists them in `foundIn`. A page holds
 * those lists (a streamed search's progress events), so a streamed reply need not carry one
 * entry per copy; one pass over the lists gives every hit's places.
 */
export function withPlaces(
  hits: readonly (Omit<MergedHit, 'foundIn'> & { foundIn?: MergedHit['foundIn'] })[],
  servers: readonly { server: string; ok: boolean; hits: Hit[] }[],
): MergedHit[] {
  const places = new Map<string, MergedHit['foundIn']>()
  for (const hit of hits) if (!hit.foundIn) places.set(dedupeKey(hit), [])
  // Every hit knows its places already (a whole reply, or fused here): the same list.
  if (places.size === 0) return hits as MergedHit[]
  for (const { server, ok, hits: list } of servers) {
    if (!ok) continue
    list.forEach((copy, index) =>
      places.get(dedupeKey(copy))?.push(placeOf(copy, server, index + 1)),
    )
  }
  return hits.map((hit) =>
    hit.foundIn ? (hit as MergedHit) : { ...hit, foundIn: places.get(dedupeKey(hit))! },
  )
}

function placeOf(hit: Hit, server: string, rank: number): MergedHit['foundIn'][number] {
  const place: MergedHit['foundIn'][number] = { server, hitId: hit.id, rank }
  if (hit.sourceId !== undefined) place.sourceId = hit.sourceId
  if (hit.score !== undefined) place.score = hit.score
  if (hit.flags.includes('suspicious')) place.suspicious = true
  return place
}

/** RRF counts each server once (its best rank), so a server repeating a hit gains nothing. */
function uniqueByServerSum(occurrences: Occurrence[]): number {
  const best = new Map<string, number>()
  for (const { server, value } of occurrences)
    best.set(server, Math.max(best.get(server) ?? 0, value))
  return [...best.values()].reduce((sum, value) => sum + value, 0)
}

/** 1 when a larger score is better, -1 for a distance. */
const better = (hit: Hit): 1 | -1 => (hit.scoreOrder === 'lower-is-better' ? -1 : 1)

/** A list's scores scaled to 0..1, its best score 1 (for a distance: its smallest). */
function minMax(hits: Hit[]): (hit: Hit) => number {
  const scores = hits
    .filter((hit) => Number.isFinite(hit.score))
    .map((hit) => better(hit) * hit.score!)
  if (scores.length === 0) return () => 0
  const low = Math.min(...scores)
  const high = Math.max(...scores)
  return (hit) => {
    if (hit.score === undefined || !Number.isFinite(hit.score)) return 0
    return high === low ? 1 : (better(hit) * hit.score - low) / (high - low)
  }
}
