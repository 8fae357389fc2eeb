import { existsSync, readFileSync } from 'node:fs'
import type { AccessHistoryEntry } from '#shared/ipc/rag'
import { ConsoleError } from '#shared/errors'
import type { AccessCheck } from '#shared/model/rag'
import { isRedactedLink } from '#shared/redacted'
import type { Redactor } from '../secrets/types'
import { writeFileAtomicSync } from '../util/atomic-write'
import type { AccessTarget } from './access-service'

/** Checks kept; older ones drop off. */
export const ACCESS_HISTORY_LIMIT = 200

/**
 * The Access panel's check history (`<dataDir>/access-history.json`), newest first and
 * bounded, so it survives a reload of the page and of the app. Entries pass through the
 * redactor before they are written, signed links without their signatures (they are
 * credentials); an unreadable file starts an empty history.
 */
export class AccessHistory {
  private entries: AccessHistoryEntry[]
  private nextId: number
  /**
   * The whole signed links of this run's checks, by their redacted form: checked again from
   * the history while the console runs; never written anywhere.
   */
  private readonly signed = new Map<string, string>()

  constructor(
    /** Absent: kept in memory only. */
    private readonly file: string | undefined,
    private readonly redactor: Redactor,
    private readonly limit = ACCESS_HISTORY_LIMIT,
  ) {
    const loaded = this.load()
    // A file written before signed links were redacted is redacted now.
    this.entries = this.redactor.redactLinks(loaded)
    if (this.entries !== loaded) this.save()
    this.nextId = Math.max(0, ...this.entries.map((entry) => entry.id)) + 1
  }

  list(): AccessHistoryEntry[] {
    return structuredClone(this.entries)
  }

  /** Records a finished check of `target` (as `profileId` when not the active profile). */
  add(target: AccessTarget, check: AccessCheck, profileId?: string): AccessHistoryEntry {
    const entry = this.redactor.redactLinks({
      id: this.nextId++,
      target: { ...target },
      check,
      ...(profileId ? { profileId } : {}),
    }) as AccessHistoryEntry
    const shown = entry.target.url
    if (target.url && shown && shown !== target.url) this.remember(shown, target.url)
    this.entries = [entry, ...this.entries].slice(0, this.limit)
    this.save()
    return structuredClone(entry)
  }

  /**
   * The target to check for one taken from the history: its signed link whole again when this
   * run checked it. A signed link whose signature is gone (the console restarted) cannot be
   * checked: the error says to paste it again.
   */
  restore(target: AccessTarget): AccessTarget {
    if (!target.url || !isRedactedLink(target.url)) return target
    const whole = this.signed.get(target.url)
    if (whole) return { ...target, url: whole }
    throw new ConsoleError({
      code: 'invalid_argument',
      message:
        'the link was signed; its signature is not saved (it is a credential): paste it again',
    })
  }

  private remember(shown: string, whole: string): void {
    this.signed.delete(shown)
    this.signed.set(shown, whole)
    // Oldest first: bounded like the history itself.
    for (const key of this.signed.keys()) {
      if (this.signed.size <= this.limit) break
      this.signed.delete(key)
    }
  }

  private save(): void {
    if (!this.file) return
    writeFileAtomicSync(this.file, `${JSON.stringify({ version: 1, entries: this.entries })}\n`)
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
