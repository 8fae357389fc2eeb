import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useId, useMemo, useRef } from 'react'
import type { Hit } from '#shared/model/rag'
import type { Judging } from '../evaluation/use-judging'
import { hitKey } from './hit-key'
import { listKeyAction } from './hit-list'
import { observeSizeLazily, scrollLazily } from './observe-size'

/**
 * Fixed row height (title line + snippet line): virtualization measures nothing, so 5,000 rows
 * cost what 30 do.
 */
export const HIT_ROW_HEIGHT = 46

export interface HitListOptions {
  hits: readonly Hit[]
  selectedKey: string | null
  onSelect: (hit: Hit) => void
  judging: Judging | null | undefined
  /** Rows rendered beyond each edge of the view. */
  overscan: number
  /** The scroll box's height when known in advance (see `observeSizeLazily`). */
  initialHeight: number | undefined
}

/**
 * A hit list's virtual rows and keyboard: which rows are in view, which one is selected (kept in
 * view), each option's element id, and what a key press does to the selection or its grade.
 */
export function useHitList({
  hits,
  selectedKey,
  onSelect,
  judging,
  overscan,
  initialHeight,
}: HitListOptions) {
  const scrollRef = useRef<HTMLDivElement>(null)
  const id = useId()
  // The virtualizer re-renders this list on scroll by design; rows get plain values only.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: hits.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => HIT_ROW_HEIGHT,
    overscan,
    ...(initialHeight === undefined
      ? {}
      : {
          initialRect: { width: 0, height: initialHeight },
          observeElementRect: observeSizeLazily,
          scrollToFn: scrollLazily,
        }),
  })
  // Once per list and selection, not on every scroll frame (50,000 keys to build).
  const selectedIndex = useMemo(
    () => (selectedKey === null ? -1 : hits.findIndex((h) => hitKey(h) === selectedKey)),
    [hits, selectedKey],
  )

  useEffect(() => {
    if (selectedIndex >= 0) virtualizer.scrollToIndex(selectedIndex, { align: 'auto' })
  }, [selectedIndex, virtualizer])

  return {
    scrollRef,
    virtualizer,
    selectedIndex,
    optionId: (index: number): string => `${id}-${index}`,
    onKeyDown: (event: React.KeyboardEvent): void => {
      const action = listKeyAction(event, selectedIndex, hits.length, Boolean(judging))
      if (!action) return
      event.preventDefault()
      if (action.type === 'grade') {
        const selected = hits[selectedIndex]
        if (selected) judging?.onGrade(selected, action.grade)
      } else {
        const hit = hits[action.index]
        if (hit) onSelect(hit)
      }
    },
  }
}
