import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useMemo, useState } from 'react'
import { call } from '../../api'
import { useNoticePosted } from '../../state/store'
import { appQueries } from '../app/queries'
import { profileKeys } from '../profiles/queries'
import { serverKeys } from './queries'
import { busyKeys, enabledNotSaved, NO_KEYS, withKey, withoutKey } from './server-actions'
import { signInTabs } from './sign-in-tabs'

export interface ServerActions {
  /**
   * Keys of the actions running now (`reconnect:<id>`, `enabled:<id>`, `sources:<id>`,
   * `sign-in:<id>`, `sign-out:<id>`).
   */
  busy: ReadonlySet<string>
  reconnect: (server: string) => Promise<void>
  setEnabled: (server: string, enabled: boolean) => Promise<void>
  setSources: (server: string, sources: Record<string, boolean>) => Promise<void>
  /** Starts an OAuth sign-in; call from the click itself (the browser host opens a tab then). */
  signIn: (server: string) => Promise<void>
  cancelSignIn: (server: string) => Promise<void>
  /** Deletes the server's OAuth tokens from the keychain. */
  signOut: (server: string) => Promise<void>
}

/** Runs an action under a busy key; a failure becomes a notice. */
type RunAction = (key: string, action: () => Promise<void>, failed: string) => Promise<void>

/**
 * What the Servers panel can do to a server. Each action says what went wrong in a notice
 * (naming the server) and refreshes the data it changed.
 */
export function useServerActions(): ServerActions {
  const { busy, run } = useActionRun()
  return { busy, ...useConnectionActions(run), ...useSignInActions(run) }
}

/** The keys of the actions running now, and how to run one (its failure named in a notice). */
function useActionRun(): { busy: ReadonlySet<string>; run: RunAction } {
  const notify = useNoticePosted()
  const [running, setRunning] = useState(NO_KEYS)
  const run = useCallback<RunAction>(
    async (key, action, failed) => {
      setRunning((all) => withKey(all, key))
      try {
        await action()
      } catch (error) {
        notify({ tone: 'bad', message: failed, detail: (error as Error).message })
      } finally {
        setRunning((all) => withoutKey(all, key))
      }
    },
    [notify],
  )
  const busy = useMemo(() => busyKeys(running), [running])
  return { busy, run }
}

/** Reconnecting a server, switching it on or off in rag-mcp.json, and choosing its sources. */
function useConnectionActions(run: RunAction) {
  const queryClient = useQueryClient()
  const notify = useNoticePosted()

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
          const problem = enabledNotSaved(result)
          if (problem !== null) throw new Error(problem)
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

  return { reconnect, setEnabled, setSources }
}

/** OAuth: signing in (a tab of its own in the browser host), cancelling it, signing out. */
function useSignInActions(run: RunAction) {
  const queryClient = useQueryClient()
  const notify = useNoticePosted()
  // Electron's main opens the system browser itself; a page in the browser host opens a tab.
  const info = useQuery(appQueries.info())
  const inBrowserHost = info.data !== undefined && info.data.versions.electron === undefined

  const signIn = useCallback(
    (server: string) => {
      if (inBrowserHost) signInTabs.open(server)
      return run(
        `sign-in:${server}`,
        async () => {
          try {
            // Resolves when the sign-in ends; its states arrive meanwhile as auth:changed.
            await call('auth:login', { serverId: server })
          } finally {
            signInTabs.forget(server)
          }
        },
        `Could not start signing in to ${server}.`,
      )
    },
    [run, inBrowserHost],
  )

  const cancelSignIn = useCallback(
    (server: string) =>
      run(
        `sign-in-cancel:${server}`,
        async () => void (await call('auth:cancel', { serverId: server })),
        `Could not cancel the sign-in to ${server}.`,
      ),
    [run],
  )

  const signOut = useCallback(
    (server: string) =>
      run(
        `sign-out:${server}`,
        async () => {
          await call('auth:logout', { serverId: server })
          await queryClient.invalidateQueries({ queryKey: serverKeys.all })
          notify({ tone: 'ok', message: `Signed out of ${server}; its tokens were deleted.` })
        },
        `Could not sign out of ${server}.`,
      ),
    [run, queryClient, notify],
  )

  return { signIn, cancelSignIn, signOut }
}
