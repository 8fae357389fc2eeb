import { useCallback, useEffect, useReducer, useRef } from 'react'
import type { Selection } from '../../../../shared/model/operations'
import { call, subscribe } from '../../api'
import { searchRunReducer, type SearchDraft, type SearchRun } from './search-run'

export interface SearchControls {
  run: SearchRun | null
  /** Starts a new search; a running one keeps going in main but is no longer shown. */
  start: (draft: SearchDraft, selection: Selection | undefined, expected: string[]) => void
  /** Stops the running search; it resolves with what arrived. */
  cancel: () => void
}

/** Runs `search:run` and folds its `search:progress` events into the run the panel shows. */
export function useSearch(): SearchControls {
  const [run, dispatch] = useReducer(searchRunReducer, null)
  const current = useRef<string | null>(null)

  useEffect(
    () =>
      subscribe('search:progress', ({ searchId, result }) =>
        dispatch({ type: 'progress', searchId, result }),
      ),
    [],
  )

  const start = useCallback<SearchControls['start']>((draft, selection, expected) => {
    const searchId = crypto.randomUUID()
    current.current = searchId
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
  }, [])

  const cancel = useCallback(() => {
    const searchId = current.current
    if (!searchId) return
    dispatch({ type: 'cancelRequested', searchId })
    call('search:cancel', { searchId }).catch((error: unknown) =>
      dispatch({
        type: 'failed',
        searchId,
        message: `Cancel failed: ${error instanceof Error ? error.message : String(error)}`,
      }),
    )
  }, [])

  return { run, start, cancel }
}
