import type { SaveResult } from '#shared/ipc/registry'

/** The keys with `key` added (an action started). */
export const withKey = (keys: ReadonlySet<string>, key: string): ReadonlySet<string> =>
  new Set(keys).add(key)

/** The keys without `key` (an action ended). */
export function withoutKey(keys: ReadonlySet<string>, key: string): ReadonlySet<string> {
  const next = new Set(keys)
  next.delete(key)
  return next
}

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
