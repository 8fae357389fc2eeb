import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import type { LogLevelName, ProtocolEntry } from '#shared/ipc/workbench'
import { call } from '../../api'
import { useNoticePosted } from '../../state/store'
import { downloadText } from '../audit/download'
import {
  NO_LOG_FILTER,
  prettyMessage,
  toJsonl,
  togglePinned,
  visibleEntries,
  type LogFilter,
} from './protocol-view'
import { workbenchKeys } from './queries'
import { useProtocolLog } from './use-protocol-log'

/**
 * What the Protocol log tab reads and does: the server's log (live while `shown`), the filter,
 * pins and the open entry (kept while the tab is hidden), clearing the log, setting the
 * server's log level and exporting what shows.
 */
export function useProtocolLogPanel(server: string, shown: boolean) {
  const queryClient = useQueryClient()
  const notify = useNoticePosted()
  const log = useProtocolLog(server, shown)
  const [filter, setFilter] = useState<LogFilter>(NO_LOG_FILTER)
  const [pinned, setPinned] = useState<ReadonlySet<number>>(new Set())
  const [open, setOpen] = useState<number | null>(null)
  const [level, setLevel] = useState<LogLevelName>('info')
  const entries = useMemo(() => log.data ?? [], [log.data])
  const rows = useMemo(() => visibleEntries(entries, filter, pinned), [entries, filter, pinned])
  const clear = useMutation({
    mutationFn: () => call('workbench:log-clear', { server }),
    onSuccess: () => {
      queryClient.setQueryData<ProtocolEntry[]>(workbenchKeys.log(server), [])
      setOpen(null)
    },
  })
  const setLevelOnServer = useMutation({
    mutationFn: () => call('workbench:set-level', { server, level }),
    onSuccess: ({ level: set }) =>
      notify({ tone: 'ok', message: `${server} now logs from ${set} up.` }),
    onError: (error) =>
      notify({
        tone: 'bad',
        message: `Could not set the log level of ${server}: ${error.message}`,
      }),
  })

  return {
    log,
    entries,
    rows,
    filter,
    setFilter,
    pinned,
    togglePin: (seq: number): void => setPinned((old) => togglePinned(old, seq)),
    /** The entry open below the table. */
    detail: entries.find((e) => e.seq === open),
    openEntry: setOpen,
    closeEntry: (): void => setOpen(null),
    level,
    setLevel,
    clear,
    setLevelOnServer,
    exportJsonl: (): void =>
      downloadText(`protocol-${server}.jsonl`, 'application/x-ndjson', toJsonl(rows)),
  }
}

export type ProtocolLogPanel = ReturnType<typeof useProtocolLogPanel>

/**
 * An open entry's text, indented when it is JSON: the preview the log holds, or the whole
 * message once `whole` has fetched it from the core.
 */
export function useEntryText(server: string, entry: ProtocolEntry) {
  const whole = useMutation({
    mutationFn: () => call('workbench:log-entry', { server, seq: entry.seq }),
  })
  const text = whole.data?.full ?? entry.text
  const pretty = useMemo(() => prettyMessage(text), [text])
  return { whole, pretty }
}
