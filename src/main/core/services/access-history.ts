import { existsSync, readFileSync } from 'node:fs'
import type { AccessHistoryEntry } from '../../../shared/ipc/rag'
import type { AccessCheck } from '../../../shared/model/rag'
import type { Redactor } from '../secrets/types'
import { writeFileAtomicSync } from '../util/atomic-write'
import type { AccessTarget } from './access-service'

/** Checks kept; older ones drop off. */
export const ACCESS_HISTORY_LIMIT = 200

/**
 * The Access panel's check history (`<dataDir>/access-history.json`), newest first and
 * bounded, so it survives a reload of the page and of the app. Entries pass through the
 * redactor before they are written; an unreadable file starts an empty history.
 */
export class AccessHistory {
  private entries: AccessHistoryEntry[]
  private nextId: number

  constructor(
    /** Absent: kept in memory only. */
    private readonly file: string | undefined,
    private readonly redactor: Redactor,
    private readonly limit = ACCESS_HISTORY_LIMIT,
  ) {
    this.entries = this.load()
    this.nextId = Math.max(0, ...this.entries.map((entry) => entry.id)) + 1
  }

  list(): AccessHistoryEntry[] {
    return structuredClone(this.entries)
  }

  /** Records a finished check of `target` (as `profileId` when not the active profile). */
  add(target: AccessTarget, check: AccessCheck, profileId?: string): AccessHistoryEntry {
    const entry = this.redactor.redact({
      id: this.nextId++,
      target: { ...target },
      check,
      ...(profileId ? { profileId } : {}),
    }) as AccessHistoryEntry
    this.entries = [entry, ...this.entries].slice(0, this.limit)
    if (this.file) {
      writeFileAtomicSync(this.file, `${JSON.stringify({ version: 1, entries: this.entries })}\n`)
    }
    return structuredClone(entry)
  }

  private load(): AccessHistoryEntry[] {
    if (!this.file || !existsSync(this.file)) return []
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as { entries?: unknown }
      return Array.isArray(parsed.entries)
        ? (parsed.entries as AccessHistoryEntry[]).slice(0, this.limit)
        : []
    } catch {
      return []
    }
  }
}
