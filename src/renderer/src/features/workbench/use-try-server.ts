import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { TryServer } from '#shared/ipc/workbench'
import { call } from '../../api'
import { workbenchKeys } from './queries'
import { EMPTY_TRY, trySpecOf, tryReady, type TryDraft } from './try-server'

/**
 * The Try-a-server dialog's draft and its connection. A stdio command is confirmed before it
 * runs. Header values live here only until they are sent or the dialog is closed.
 */
export function useTryServer(onClose: () => void, onTried: (server: string) => void) {
  const queryClient = useQueryClient()
  const [draft, setDraft] = useState<TryDraft>(EMPTY_TRY)
  const [confirming, setConfirming] = useState(false)
  const dropHeaders = (): void => setDraft((old) => ({ ...old, headers: [] }))
  const tryIt = useMutation({
    mutationFn: () => call('workbench:try', trySpecOf(draft)),
    onSuccess: (tried) => {
      queryClient.setQueryData<TryServer[]>(workbenchKeys.tried(), (old) => [...(old ?? []), tried])
      // Header values stay in the main process only.
      dropHeaders()
      setConfirming(false)
      onTried(tried.server)
      onClose()
    },
    onError: () => setConfirming(false),
  })
  const ready = tryReady(draft)
  return {
    draft,
    edit: (change: Partial<TryDraft>): void => setDraft((old) => ({ ...old, ...change })),
    ready,
    tryIt,
    confirming,
    cancelConfirm: (): void => setConfirming(false),
    close: (): void => {
      dropHeaders()
      onClose()
    },
    submit: (): void => {
      if (!ready) return
      if (draft.transport === 'stdio') setConfirming(true)
      else tryIt.mutate()
    },
  }
}
