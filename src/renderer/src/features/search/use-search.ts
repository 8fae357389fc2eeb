import { useCallback, useEffect, useRef } from 'react'
import type { Selection } from '../../../../shared/model/operations'
import { call, subscribe } from '../../api'
import { batched } from '../../lib/batch'
import { useSessionData } from '../../lib/use-session-data'
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
  const [run, update] = useSessionData<SearchRun>(searchKeys.run())
  const dispatch = useCallback(
    (action: SearchRunAction) => update((previous) => searchRunReducer(previous, action)),
    [update],
  )
  // The latest run, for callbacks that must not change identity on every progress event.
  const latest = useRef(run)
  useEffect(() => {
    latest.current = run
  }, [run])

  const stop = useCallback(
    (searchId: string) =>
      call('search:cancel', { searchId }).catch((error: unknown) =>
        dispatch({
          type: 'failed',
          searchId,
          message: `Cancel failed: ${error instanceof Error ? error.message : String(error)}`,
        }),
      ),
    [dispatch],
  )

  useEffect(() => {
    // Servers answering together land in one update, not one re-render each.
    const progress = batched<SearchRunAction>((actions) =>
      update((previous) => actions.reduce(searchRunReducer, previous)),
    )
    const unsubscribe = subscribe('search:progress', ({ searchId, result }) =>
      progress.push({ type: 'progress', searchId, result }),
    )
    return () => {
      unsubscribe()
      progress.cancel()
    }
  }, [update])

  const start = useCallback<SearchControls['start']>(
    (draft, selection, expected) => {
      // A search still running is replaced: stop it rather than let it use the servers.
      if (latest.current?.phase === 'running') void stop(latest.current.searchId)
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
    [dispatch, stop],
  )

  const cancel = useCallback(() => {
    const current = latest.current
    if (!current || current.phase !== 'running') return
    dispatch({ type: 'cancelRequested', searchId: current.searchId })
    void stop(current.searchId)
  }, [dispatch, stop])

  return { run, start, cancel }
}
