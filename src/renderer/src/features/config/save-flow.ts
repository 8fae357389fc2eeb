import type { RawConfig, ReloadResult, SaveResult } from '#shared/ipc/registry'
import type { Diagnostic } from '#shared/model/registry'
import { plural } from '../../lib/format'
import type { NoticeInput } from '../../state/store'
import { describeDiff } from '../../app/core-events'
import type { Comparison } from './CompareDialog'

/** Ctrl/⌘+S (without Alt): opens the save dialog. */
export const isSaveShortcut = (
  event: Pick<KeyboardEvent, 'ctrlKey' | 'metaKey' | 'altKey' | 'key'>,
): boolean => (event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 's'

/** The editor's text is not a file on disk yet (the embedded demo registry, or no file). */
export const notOnDisk = (base: RawConfig): boolean => base.fromEmbedded || !base.exists

/** Whether saving `text` would write anything: an edit, or a file that is not there yet. */
export const worthSaving = (text: string, base: RawConfig): boolean =>
  text !== base.text || notOnDisk(base)

const errorCount = (diagnostics: readonly Diagnostic[]): number =>
  diagnostics.filter((d) => d.severity === 'error').length

/** A check's diagnostics split as the save dialog shows them: errors stop the save, warnings not. */
export function bySeverity(diagnostics: readonly Diagnostic[] = []): {
  errors: Diagnostic[]
  warnings: Diagnostic[]
} {
  return {
    errors: diagnostics.filter((d) => d.severity === 'error'),
    warnings: diagnostics.filter((d) => d.severity === 'warning'),
  }
}

/** What a reload from the toolbar tells the user. */
export function reloadNotice({ event, emitted }: ReloadResult): NoticeInput {
  if (event.outcome === 'invalid') {
    const errors = errorCount(event.diagnostics ?? [])
    return {
      tone: 'warn',
      message: `Reloaded: the file is still invalid (${plural(errors, 'error')}); the last good config keeps running.`,
    }
  }
  const what = event.diff ? describeDiff(event.diff) : ''
  return {
    tone: 'ok',
    message: emitted && what ? `Reloaded: ${what}.` : 'Reloaded: nothing changed.',
  }
}

/** After a save: a notice (saved, or refused as invalid), or the two versions of a conflict. */
export function saveOutcome(
  result: SaveResult,
): { notice: NoticeInput } | { conflict: Comparison } {
  switch (result.status) {
    case 'saved': {
      const what = result.reload.event.diff ? describeDiff(result.reload.event.diff) : ''
      return { notice: { tone: 'ok', message: `Saved ${result.path}${what ? `: ${what}` : ''}.` } }
    }
    case 'invalid':
      return {
        notice: {
          tone: 'bad',
          message: `Not saved: ${plural(errorCount(result.diagnostics), 'error')} in the draft.`,
          detail: 'They are marked in the editor.',
        },
      }
    case 'conflict':
      return {
        conflict: {
          kind: 'conflict',
          path: result.path,
          disk: result.diskText,
          diskHash: result.diskHash,
          diskExists: result.diskExists,
          mine: result.proposedText,
          keptAt: result.keptAt,
        },
      }
  }
}

/** A disk version that arrived while editing, beside the draft. */
export const externalComparison = (disk: RawConfig, mine: string): Comparison => ({
  kind: 'external',
  path: disk.path,
  disk: disk.text,
  diskHash: disk.hash,
  diskExists: disk.exists,
  mine,
})

/** The disk side of a comparison as a file read, for the draft state. */
export function diskVersion(base: RawConfig, comparison: Comparison): RawConfig {
  return {
    ...base,
    path: comparison.path,
    text: comparison.disk,
    hash: comparison.diskHash,
    exists: comparison.diskExists,
    fromEmbedded: false,
  }
}

export const DISK_TAKEN: NoticeInput = {
  tone: 'info',
  message: 'Loaded the version on disk; your edits were dropped (Ctrl+Z brings them back).',
}
