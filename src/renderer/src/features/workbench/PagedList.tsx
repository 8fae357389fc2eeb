import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query'
import type { Page } from '#shared/ipc/workbench'
import { Banner, Button, Spinner } from '../../ui'

export interface PagedListProps<T> {
  query: UseInfiniteQueryResult<InfiniteData<Page<T>>>
  server: string
  /** Plural noun: "resources", "resource templates", "prompts". */
  noun: string
  /** Accessible name of the list. */
  label: string
  itemKey: (item: T) => string
  children: (item: T) => React.ReactNode
  /** Many servers lack this listing: its error is a quiet note, not an alert. */
  optional?: boolean
}

/** A listing fetched one page at a time, with "Load more" while the server has more. */
export function PagedList<T>({
  query,
  server,
  noun,
  label,
  itemKey,
  children,
  optional = false,
}: PagedListProps<T>) {
  const items = query.data?.pages.flatMap((page) => page.items) ?? []
  return (
    <>
      <h3>{noun}</h3>
      {query.isPending ? (
        <Spinner label={`Listing ${noun}…`} />
      ) : query.isError ? (
        optional ? (
          <p className="muted">
            No {noun}: {query.error.message}
          </p>
        ) : (
          <Banner tone="bad" title={`Could not list the ${noun} of ${server}`}>
            {query.error.message}
          </Banner>
        )
      ) : items.length === 0 ? (
        <p className="muted">
          {server} lists no {noun}.
        </p>
      ) : (
        <ul className="wb-items" aria-label={label}>
          {items.map((item) => (
            <li key={itemKey(item)}>{children(item)}</li>
          ))}
        </ul>
      )}
      {query.hasNextPage && (
        <Button busy={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
          Load more {noun}
        </Button>
      )}
    </>
  )
}
