import type { FieldChange } from '../model/registry'
import { maskPlaintextSecrets } from './plaintext-secrets'
import type { ServerConfig } from './schema'

/** A value longer than this (as JSON) is cut with an ellipsis. */
const MAX_VALUE = 120

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const show = (value: unknown): string => {
  const text = JSON.stringify(value)
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text
}

/**
 * What an edit changed in one server's effective config, field by field (objects such as
 * `headers` per key, lists as a whole), by dotted path. Values are JSON text with
 * plaintext-looking secrets masked, so a changed credential shows as changed, never its value;
 * references (`${keychain:…}`) show as written. `origin` (which file) is not a setting.
 */
export function fieldChanges(before: ServerConfig, after: ServerConfig): FieldChange[] {
  const changes: FieldChange[] = []
  const masked = [maskPlaintextSecrets(before), maskPlaintextSecrets(after)] as const
  const walk = (a: unknown, b: unknown, rawA: unknown, rawB: unknown, path: string): void => {
    if (isObject(rawA) && isObject(rawB)) {
      const keys = [...new Set([...Object.keys(rawA), ...Object.keys(rawB)])].sort()
      for (const key of keys) {
        if (!path && key === 'origin') continue
        const child = path ? `${path}.${key}` : key
        walk(
          (a as Record<string, unknown>)[key],
          (b as Record<string, unknown>)[key],
          rawA[key],
          rawB[key],
          child,
        )
      }
      return
    }
    if (JSON.stringify(rawA) === JSON.stringify(rawB)) return
    const change: FieldChange = { path }
    if (a !== undefined) change.before = show(a)
    if (b !== undefined) change.after = show(b)
    changes.push(change)
  }
  walk(masked[0], masked[1], before, after, '')
  return changes
}
