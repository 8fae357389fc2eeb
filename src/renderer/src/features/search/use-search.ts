import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect } from 'react'
import type { Selection } from '../../../../shared/model/operations'
import { call, subscribe } from '../../api'
import { searchKeys } from './queries'
import {
  searchRunReducer,
  type SearchDraft,
  type SearchRun,
  type SearchRunAction,
} from './search-run'

export interface SearchControls {
  run: SearchRun | null
  /** Starts a new search; a running one keeps going in main but is no longer shown. */
  start: (draft: SearchDraft, selection: Selection | undefined, expected: string[]) => void
  /** Stops the running search; it resolves with what arrived. */
  cancel: () => void
}

/**
 * Runs `search:run` and folds its `search:progress` events into the run the panel shows. The
 * run lives in the query cache (it is server data), so it is still there when the user comes
 * back from another panel, and a search finishing meanwhile still lands.
 */
export function useSearch(): SearchControls {
  const queryClient = useQueryClient()
  const { data: run } = useQuery({
    queryKey: searchKeys.run(),
    queryFn: () => queryClient.getQueryData<SearchRun | null>(searchKeys.run()) ?? null,
    initialData: null,
    staleTime: Infinity,
    gcTime: Infinity,
  })
  const dispatch = useCallback(
    (action: SearchRunAction) =>
      queryClient.setQueryData<SearchRun | null>(searchKeys.run(), (previous) =>
        searchRunReducer(previous ?? null, action),
      ),
    [queryClient],
  )

  useEffect(
    () =>
      subscribe('search:progress', ({ searchId, result }) =>
        dispatch({ type: 'progress', searchId, result }),
      ),
    [dispatch],
  )

  const start = useCallback<SearchControls['start']>(
    (draft, selection, expected) => {
      const searchId = crypto.randomUUID()
      dispatch({ type: 'started', searchId, draft, expected, at: performance.now() })
      const phrases = draft.phrases.filter((phrase) => phrase.trim() !== '')
      call('search:run', {
        searchId,
        query: draft.query,
        topK: draft.topK,
        fusion: draft.fusion,
        ...(phrases.length > 0 ? { phrases } : {}),
        ...(selection ? { selection } : {}),
      }).then(
        (result) => dispatch({ type: 'finished', result }),
        (error: unknown) =>
          dispatch({
            type: 'failed',
            searchId,
            message: error instanceof Error ? error.message : String(error),
          }),
      )
    },
    [dispatch],
  )

  const cancel = useCallback(() => {
    const current = queryClient.getQueryData<SearchRun | null>(searchKeys.run())
    if (!current || current.phase !== 'running') return
    const { searchId } = current
    dispatch({ type: 'cancelRequested', searchId })
    call('search:cancel', { searchId }).catch((error: unknown) =>
      dispatch({
        type: 'failed',
        searchId,
        message: `Cancel failed: ${error instanceof Error ? error.message : String(error)}`,
      }),
    )
  }, [dispatch, queryClient])

  return { run, start, cancel }
}
