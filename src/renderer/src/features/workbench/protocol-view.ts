import type { ProtocolDirection, ProtocolEntry } from '#shared/ipc/workbench'

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
