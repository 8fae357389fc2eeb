import { dedupeKey } from '#shared/model/hit-identity'
import type { MergedHit, ServerSearchResult } from '#shared/model/operations'
import type { Hit } from '#shared/model/rag'

/**
 * Each hit's identity, worked out once: the index is rebuilt whenever a server's answer arrives,
 * and parsing every link again each time made a search over 500 servers quadratic.
 */
const keys = new WeakMap<Hit, string>()
function keyOf(hit: Hit): string {
  let key = keys.get(hit)
  if (key === undefined) keys.set(hit, (key = dedupeKey(hit)))
  return key
}

/** Which providers returned each document: dedupe key → server ids, in answer order. */
export type OverlapIndex = ReadonlyMap<string, readonly string[]>

/** Builds the overlap index over every server's hits (failed servers contribute nothing). */
export function overlapIndex(results: readonly ServerSearchResult[]): OverlapIndex {
  const index = new Map<string, string[]>()
  for (const result of results) {
    for (const hit of result.hits) {
      const key = keyOf(hit)
      const servers = index.get(key)
      if (!servers) index.set(key, [result.server])
      else if (!servers.includes(result.server)) servers.push(result.server)
    }
  }
  return index
}

/** The providers that returned `hit` (at least its own server). */
export function providersOf(index: OverlapIndex, hit: Hit): readonly string[] {
  return index.get(keyOf(hit)) ?? [hit.server]
}

/**
 * Who found a hit, as its marker and the inspector both say it: the providers (for a merged
 * hit, those of its places: fusion and the overlap index group documents alike) and, for a
 * merged hit, its places (a provider may return two passages of one document).
 */
export function foundBy(
  hit: Hit | MergedHit,
  index: OverlapIndex = new Map(),
): { providers: readonly string[]; places?: number } {
  if (!('foundIn' in hit)) return { providers: providersOf(index, hit) }
  return {
    providers: [...new Set(hit.foundIn.map((place) => place.server))],
    places: hit.foundIn.length,
  }
}

/** `Found by 2 providers, in 4 places`: the heading of the inspector and the marker's title. */
export function foundText({ providers, places }: ReturnType<typeof foundBy>): string {
  const by = providers.length === 1 ? 'one provider' : `${providers.length} providers`
  return places !== undefined && places > providers.length
    ? `Found by ${by}, in ${places} places`
    : `Found by ${by}`
}

/** Names a tooltip lists before it counts the rest. */
const NAMED = 8

/**
 * The overlap marker's tooltip: the other providers that returned a hit, the first few by name.
 * Listing all 499 others of a 500-server search cost every row a long string to build and set.
 */
export function alsoReturnedBy(found: readonly string[], own: string): string {
  const named: string[] = []
  for (const server of found) {
    if (named.length === NAMED) break
    if (server !== own) named.push(server)
  }
  const others = found.length - (found.includes(own) ? 1 : 0)
  const rest = others - named.length
  return `Also returned by: ${named.join(', ')}${rest > 0 ? ` and ${rest} more` : ''}`
}

/** Per provider: how many of its distinct documents others returned too, and how many only it. */
export interface ProviderOverlap {
  shared: number
  only: number
}

export function providerOverlap(index: OverlapIndex, result: ServerSearchResult): ProviderOverlap {
  const own = new Set(result.hits.map(keyOf))
  let shared = 0
  for (const key of own) if ((index.get(key)?.length ?? 1) > 1) shared++
  return { shared, only: own.size - shared }
}

/** Across all providers: distinct documents, and how many more than one provider returned. */
export function overlapTotals(index: OverlapIndex): { documents: number; shared: number } {
  let shared = 0
  for (const servers of index.values()) if (servers.length > 1) shared++
  return { documents: index.size, shared }
}
