import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useRef } from 'react'
import type { Selection } from '#shared/model/operations'
import { call } from '../../api'
import { useSessionData } from '../../lib/use-session-data'
import { searchKeys } from './queries'
import { searchFeed } from './run-feed'
import type { SearchDraft, SearchRun } from './search-run'

export interface SearchControls {
  run: SearchRun | null
  /** Starts a new search; a running one keeps going in main but is no longer shown. */
  start: (draft: SearchDraft, selection: Selection | undefined, expected: string[]) => void
  /** Stops the running search; it resolves with what arrived. */
  cancel: () => void
}

/**
 * Runs `search:run`; its `search:progress` events are folded in by the app's event handling
 * (see {@link searchFeed}), so the reply only sums up each server's part. The run lives in the
 * query cache (it is server data), so it is still there when the user comes back from another
 * panel, and a search finishing meanwhile still lands whole.
 */
export function useSearch(): SearchControls {
  const [run] = useSessionData<SearchRun>(searchKeys.run())
  const feed = searchFeed(useQueryClient())
  // The latest run, for callbacks that must not change identity on every progress event.
  const latest = useRef(run)
  useEffect(() => {
    latest.current = run
  }, [run])

  const stop = useCallback(
    (searchId: string) =>
      call('search:cancel', { searchId }).catch((error: unknown) =>
        feed.apply({
          type: 'failed',
          searchId,
          message: `Cancel failed: ${error instanceof Error ? error.message : String(error)}`,
        }),
      ),
    [feed],
  )

  const start = useCallback<SearchControls['start']>(
    (draft, selection, expected) => {
      // A search still running is replaced: stop it rather than let it use the servers.
      if (latest.current?.phase === 'running') void stop(latest.current.searchId)
      const searchId = crypto.randomUUID()
      feed.apply({ type: 'started', searchId, draft, expected, at: performance.now() })
      const phrases = draft.phrases.filter((phrase) => phrase.trim() !== '')
      call('search:run', {
        searchId,
        query: draft.query,
        topK: draft.topK,
        fusion: draft.fusion,
        streamed: true,
        ...(phrases.length > 0 ? { phrases } : {}),
        ...(selection ? { selection } : {}),
      }).then(
        (result) => feed.apply({ type: 'finished', result }),
        (error: unknown) =>
          feed.apply({
            type: 'failed',
            searchId,
            message: error instanceof Error ? error.message : String(error),
          }),
      )
    },
    [feed, stop],
  )

  const cancel = useCallback(() => {
    const current = latest.current
    if (!current || current.phase !== 'running') return
    feed.apply({ type: 'cancelRequested', searchId: current.searchId })
    void stop(current.searchId)
  }, [feed, stop])

  return { run, start, cancel }
}
