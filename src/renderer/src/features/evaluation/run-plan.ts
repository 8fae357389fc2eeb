/** A query as the launcher sees it: its id and the profile it is pinned to, if any. */
export interface PlannedQuery {
  id: string
  profileId?: string | undefined
}

/** Who a run's queries run as, before it starts. */
export interface RunPlan {
  /** Queries without a profile of their own: each runs as every ticked profile. */
  free: number
  /** Pinned queries by the profile they always run as, ticked or not (by profile id). */
  pinned: { profileId: string; queries: number; ticked: boolean }[]
  /** (query, profile) searches the run makes. */
  searches: number
  /** The query ids to send (`queryIds`): all, or with `onlyTicked` those pinned elsewhere left out. */
  queryIds: string[] | undefined
}

/**
 * Who runs what: queries without a profile run as each ticked profile; a query pinned to a
 * profile runs as that profile whatever is ticked, unless `onlyTicked` leaves it out.
 */
export function runPlan(
  queries: readonly PlannedQuery[],
  ticked: readonly string[],
  onlyTicked: boolean,
): RunPlan {
  const counts = new Map<string, number>()
  let free = 0
  for (const query of queries) {
    if (query.profileId === undefined) free++
    else counts.set(query.profileId, (counts.get(query.profileId) ?? 0) + 1)
  }
  const pinned = [...counts]
    .map(([profileId, count]) => ({
      profileId,
      queries: count,
      ticked: ticked.includes(profileId),
    }))
    .sort((a, b) => Number(b.ticked) - Number(a.ticked) || a.profileId.localeCompare(b.profileId))
  const kept = pinned.filter((p) => p.ticked || !onlyTicked)
  const skips = onlyTicked && kept.length < pinned.length
  return {
    free,
    pinned,
    searches: free * ticked.length + kept.reduce((sum, p) => sum + p.queries, 0),
    queryIds: skips
      ? queries
          .filter((q) => q.profileId === undefined || ticked.includes(q.profileId))
          .map((q) => q.id)
      : undefined,
  }
}
