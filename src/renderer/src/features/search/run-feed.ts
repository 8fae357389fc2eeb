import type { QueryClient } from '@tanstack/react-query'
import type { EventMap } from '#shared/ipc/events'
import { batched } from '../../lib/batch'
import { searchKeys } from './queries'
import { searchRunReducer, type SearchRun, type SearchRunAction } from './search-run'

/**
 * How a search's events reach the run in the query cache, in the order they came. Progress
 * events wait a moment, so that servers answering together land in one update rather than one
 * re-render each; any other action lands at once, after the progress still waiting, so a reply
 * never overtakes the events sent before it.
 */
export interface SearchFeed {
  progress: (event: EventMap['search:progress']) => void
  apply: (action: SearchRunAction) => void
}

const feeds = new WeakMap<QueryClient, SearchFeed>()

/** The query client's one feed: events land even while the Search panel is not shown. */
export function searchFeed(queryClient: QueryClient): SearchFeed {
  const known = feeds.get(queryClient)
  if (known) return known
  const fold = (actions: SearchRunAction[]): void =>
    void queryClient.setQueryData<SearchRun | null>(searchKeys.run(), (previous) =>
      actions.reduce(searchRunReducer, previous ?? null),
    )
  const waiting = batched<SearchRunAction>(fold)
  const feed: SearchFeed = {
    progress: ({ searchId, result }) => waiting.push({ type: 'progress', searchId, result }),
    apply(action) {
      waiting.flush()
      fold([action])
    },
  }
  feeds.set(queryClient, feed)
  return feed
}
