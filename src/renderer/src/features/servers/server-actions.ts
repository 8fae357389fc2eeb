import type { SaveResult } from '#shared/ipc/registry'

/** The actions running now: how many runs of each key (one server's sources may save twice). */
export type RunningKeys = ReadonlyMap<string, number>

export const NO_KEYS: RunningKeys = new Map()

/** The running keys with one more run of `key` (an action started). */
export const withKey = (keys: RunningKeys, key: string): RunningKeys =>
  new Map(keys).set(key, (keys.get(key) ?? 0) + 1)

/** The running keys with one run of `key` fewer (an action ended). */
export function withoutKey(keys: RunningKeys, key: string): RunningKeys {
  const next = new Map(keys)
  const left = (next.get(key) ?? 0) - 1
  if (left > 0) next.set(key, left)
  else next.delete(key)
  return next
}

/** The keys with a run still going. */
export const busyKeys = (keys: RunningKeys): ReadonlySet<string> => new Set(keys.keys())

/**
 * Why switching a server on or off did not save, in words that say what to do next; null when
 * it saved. An invalid registry names its first error; a conflict says why the file on disk
 * could not be trusted, when the save said.
 */
export function enabledNotSaved(result: SaveResult): string | null {
  if (result.status === 'invalid') {
    const first = result.diagnostics.find((d) => d.severity === 'error')
    return `rag-mcp.json would not be valid${first ? `: ${first.message}` : ''}. Fix it in Config first.`
  }
  if (result.status === 'conflict') {
    return result.untrusted ?? 'rag-mcp.json changed on disk meanwhile; try again.'
  }
  return null
}
