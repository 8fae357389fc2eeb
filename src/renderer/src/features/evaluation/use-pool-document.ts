import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { documentRequest, webLink, type PoolItem } from './pool-view'
import { evalQueries } from './queries'

/**
 * The pooled document being judged: its words (the next document's asked for meanwhile), its
 * title and link, and the element that takes the focus when it opens so its keys work at once.
 */
export function usePoolDocument(item: PoolItem, next: PoolItem | undefined) {
  const ref = useRef<HTMLElement>(null)
  const queryClient = useQueryClient()
  const text = useQuery(evalQueries.poolDocument(documentRequest(item)))
  useEffect(() => {
    // The next document's words, asked while this one is read.
    if (next) void queryClient.prefetchQuery(evalQueries.poolDocument(documentRequest(next)))
  }, [next, queryClient])
  useEffect(() => ref.current?.focus(), [])
  return {
    ref,
    text,
    title: text.data?.title || item.doc.title || item.doc.docKey,
    /** Where the document opens in the browser; none: its key is shown instead. */
    link: webLink(text.data?.uri ?? item.doc.uri),
  }
}
