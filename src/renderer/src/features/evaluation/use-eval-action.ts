import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useState } from 'react'
import { useNoticePosted } from '../../state/store'
import { evalKeys } from './queries'

/**
 * Runs one of the panel's actions (save, delete, run…): busy while it runs, a notice naming
 * what failed, the evaluation queries read again after it. Resolves undefined on failure.
 */
export function useEvalAction(): {
  busy: string | null
  act: <T>(key: string, failed: string, action: () => Promise<T>) => Promise<T | undefined>
} {
  const queryClient = useQueryClient()
  const notify = useNoticePosted()
  const [busy, setBusy] = useState<string | null>(null)
  const act = useCallback(
    async <T>(key: string, failed: string, action: () => Promise<T>): Promise<T | undefined> => {
      setBusy(key)
      try {
        const result = await action()
        await queryClient.invalidateQueries({ queryKey: evalKeys.all })
        return result
      } catch (error) {
        notify({ tone: 'bad', message: failed, detail: (error as Error).message })
        return undefined
      } finally {
        setBusy(null)
      }
    },
    [queryClient, notify],
  )
  return { busy, act }
}
