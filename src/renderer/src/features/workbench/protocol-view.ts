import type { ProtocolDirection, ProtocolEntry } from '#shared/ipc/workbench'
import { plural } from '../../lib/format'

export interface LogFilter {
  /** Matched case-insensitively against method, id, level and the message text. */
  text: string
  direction: ProtocolDirection | 'all'
  /** Only the Workbench's own calls (not searches, Doctor, probes or connects). */
  mine: boolean
}

export const NO_LOG_FILTER: LogFilter = { text: '', direction: 'all', mine: false }

/** The operation the Workbench's own calls run as (see `ProtocolEntry.operation`). */
export const WORKBENCH_OPERATION = 'workbench'

/**
 * The entries to show: pinned ones first (whatever the filter), then the matching rest, newest
 * first (what was just called is on top, above older traffic such as Doctor's).
 */
export function visibleEntries(
  entries: readonly ProtocolEntry[],
  filter: LogFilter,
  pinned: ReadonlySet<number>,
): ProtocolEntry[] {
  const needle = filter.text.trim().toLowerCase()
  const matches = (entry: ProtocolEntry): boolean =>
    (filter.direction === 'all' || entry.direction === filter.direction) &&
    (!filter.mine || entry.operation === WORKBENCH_OPERATION) &&
    (needle === '' ||
      [entry.method, entry.id, entry.level, entry.text].some((field) =>
        String(field ?? '')
          .toLowerCase()
          .includes(needle),
      ))
  const top = entries.filter((entry) => pinned.has(entry.seq))
  const rest = entries.filter((entry) => !pinned.has(entry.seq) && matches(entry))
  return [...top, ...rest.reverse()]
}

/** One JSON object per line, as shown (previews stay previews: expand to export the whole). */
export const toJsonl = (entries: readonly ProtocolEntry[]): string =>
  entries.map((entry) => JSON.stringify(entry)).join('\n') + (entries.length ? '\n' : '')

/** `→` out, `←` in, `!` stderr. */
export const ARROWS: Record<ProtocolDirection, string> = {
  out: '→ out',
  in: '← in',
  stderr: '! stderr',
}

/** The pins with `seq` pinned if it was not, unpinned if it was. */
export function togglePinned(pinned: ReadonlySet<number>, seq: number): ReadonlySet<number> {
  const next = new Set(pinned)
  if (!next.delete(seq)) next.add(seq)
  return next
}

/** How many messages show, and of how many when a filter hides some. */
export const countLabel = (shown: number, total: number): string =>
  shown === total ? plural(total, 'message') : `${shown} of ${plural(total, 'message')}`

/** A row's accessible name: direction, method (or kind), id and whether it is a preview. */
export const entryLabel = (e: ProtocolEntry): string =>
  `${e.direction} ${e.method ?? e.kind}${e.id !== undefined ? ` #${e.id}` : ''}${e.truncated ? ' (preview)' : ''}`

/** What an empty table says, with or without the "only my calls" filter. */
export const emptyLogText = (mine: boolean): string =>
  mine
    ? 'No calls of yours yet: call a tool, list resources or prompts.'
    : 'No messages yet: call a tool, list resources or prompts.'

/** A message's text indented when it is JSON, as it came when it is not (a cut preview). */
export function prettyMessage(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return text
  }
}
