import { createHash } from 'node:crypto'
import type { ServerConfig } from '#shared/config/schema'
import type { RegistryDiff } from '#shared/model/registry'
import { encodeLossless } from '../util/lossless-utf8'

/** JSON with object keys sorted at every depth, so equal values give equal text. */
export function stableStringify(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(
          Object.entries(item as Record<string, unknown>).sort(([a], [b]) =>
            a < b ? -1 : a > b ? 1 : 0,
          ),
        )
      : item,
  )
}

/**
 * SHA-256 of a file's text, hex: what saves pass as `baseHash`. Hashed as the file's bytes
 * ({@link encodeLossless}), so files that differ only in bytes that are not UTF-8 differ.
 */
export const contentHash = (text: string): string =>
  createHash('sha256').update(encodeLossless(text)).digest('hex')

/**
 * Hash of a server's effective config, independent of key order. `origin` is left out: moving
 * an unchanged entry between layered files does not change the connection.
 */
export function configHash(config: ServerConfig): string {
  const { origin: _origin, ...effective } = config
  return contentHash(stableStringify(effective))
}

/** Classifies server ids by comparing effective-config hashes. */
export function diffRegistries(
  before: Readonly<Record<string, string>>,
  after: Readonly<Record<string, string>>,
): RegistryDiff {
  const diff: RegistryDiff = { added: [], removed: [], changed: [], unchanged: [] }
  for (const [id, hash] of Object.entries(after)) {
    if (!(id in before)) diff.added.push(id)
    else if (before[id] === hash) diff.unchanged.push(id)
    else diff.changed.push(id)
  }
  for (const id of Object.keys(before)) if (!(id in after)) diff.removed.push(id)
  return diff
}

/** True when the diff touches no server. */
export const isNoop = (diff: RegistryDiff): boolean =>
  diff.added.length + diff.removed.length + diff.changed.length === 0
