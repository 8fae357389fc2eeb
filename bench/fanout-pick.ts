/**
 * The servers a fan-out search covers: `count` of `ids`, each kind (by `kindOf`: a family is a
 * dialect over a transport) in its share of the registry, rounded by largest remainder, and
 * spread evenly over that kind's servers in registry order (so over every demo process and
 * latency class). Every second server of the registry would meet only the kinds at even
 * positions of the demo's endpoint cycle.
 */
export function pickFanout(ids: string[], count: number, kindOf: (id: string) => string): string[] {
  const kinds = new Map<string, string[]>()
  for (const id of ids) kinds.set(kindOf(id), [...(kinds.get(kindOf(id)) ?? []), id])
  const wanted = Math.min(count, ids.length)
  const quotas = [...kinds].map(([kind, members]) => {
    const exact = (wanted * members.length) / ids.length
    return { kind, members, take: Math.floor(exact), rest: exact - Math.floor(exact) }
  })
  let left = wanted - quotas.reduce((total, quota) => total + quota.take, 0)
  for (const quota of [...quotas].sort((a, b) => b.rest - a.rest)) {
    if (left-- <= 0) break
    quota.take += 1
  }
  const picked = new Set(
    quotas.flatMap(({ members, take }) =>
      Array.from({ length: take }, (_, i) => members[Math.floor((i * members.length) / take)]!),
    ),
  )
  return ids.filter((id) => picked.has(id))
}
