import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useState } from 'react'
import { call } from '../../api'
import { useNoticePosted } from '../../state/store'
import { profileKeys } from '../profiles/queries'
import { serverKeys } from './queries'

export interface ServerActions {
  /** Keys of the actions running now (`reconnect:<id>`, `enabled:<id>`, `sources:<id>`). */
  busy: ReadonlySet<string>
  reconnect: (server: string) => Promise<void>
  setEnabled: (server: string, enabled: boolean) => Promise<void>
  setSources: (server: string, sources: Record<string, boolean>) => Promise<void>
}

/**
 * What the Servers panel can do to a server. Each action says what went wrong in a notice
 * (naming the server) and refreshes the data it changed.
 */
export function useServerActions(): ServerActions {
  const queryClient = useQueryClient()
  const notify = useNoticePosted()
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set())

  const run = useCallback(
    async (key: string, action: () => Promise<void>, failed: string): Promise<void> => {
      setBusy((all) => new Set(all).add(key))
      try {
        await action()
      } catch (error) {
        notify({ tone: 'bad', message: failed, detail: (error as Error).message })
      } finally {
        setBusy((all) => {
          const next = new Set(all)
          next.delete(key)
          return next
        })
      }
    },
    [notify],
  )

  const reconnect = useCallback(
    (server: string) =>
      run(
        `reconnect:${server}`,
        async () => {
          await call('pool:reconnect', { server })
          await queryClient.invalidateQueries({ queryKey: serverKeys.all })
        },
        `Could not reconnect ${server}.`,
      ),
    [run, queryClient],
  )

  const setEnabled = useCallback(
    (server: string, enabled: boolean) =>
      run(
        `enabled:${server}`,
        async () => {
          const result = await call('registry:set-enabled', { serverId: server, enabled })
          if (result.status === 'invalid') {
            const first = result.diagnostics.find((d) => d.severity === 'error')
            throw new Error(
              `rag-mcp.json would not be valid${first ? `: ${first.message}` : ''}. Fix it in Config first.`,
            )
          }
          if (result.status === 'conflict') {
            throw new Error('rag-mcp.json changed on disk meanwhile; try again.')
          }
          await queryClient.invalidateQueries({ queryKey: serverKeys.all })
          notify({
            tone: 'ok',
            message: `${server} ${enabled ? 'enabled' : 'disabled'}; saved in ${result.path}.`,
          })
        },
        `Could not ${enabled ? 'enable' : 'disable'} ${server}.`,
      ),
    [run, queryClient, notify],
  )

  const setSources = useCallback(
    (server: string, sources: Record<string, boolean>) =>
      run(
        `sources:${server}`,
        async () => {
          const now = await call('selection:set', { server, sources })
          queryClient.setQueryData<Record<string, Record<string, boolean>>>(
            profileKeys.selection(),
            (all) => ({ ...all, [server]: now }),
          )
        },
        `Could not change the sources of ${server}.`,
      ),
    [run, queryClient],
  )

  return { busy, reconnect, setEnabled, setSources }
}
