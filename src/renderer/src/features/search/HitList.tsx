import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useId, useMemo, useRef } from 'react'
import type { Hit } from '#shared/model/rag'
import { cx, EmptyState } from '../../ui'
import { hitKey } from './hit-key'
import type { Judging } from '../evaluation/use-judging'
import { gradeOfKey } from '../evaluation/grades'
import { formatScore } from './hit-fields'
import { HitRow } from './HitRow'
import { observeSizeLazily, scrollLazily } from './observe-size'
import type { OverlapIndex } from './overlap'
import './HitList.css'

/**
 * Fixed row height (title line + snippet line): virtualization measures nothing, so 5,000 rows
 * cost what 30 do.
 */
export const HIT_ROW_HEIGHT = 46

export interface HitListProps {
  /** Accessible name of the list, e.g. "Merged hits". */
  label: string
  hits: readonly Hit[]
  overlap: OverlapIndex
  selectedKey: string | null
  onSelect: (hit: Hit) => void
  /** Show the server column (off inside one provider's column). */
  showServer?: boolean
  /** Rank shown in the first column; default the position in the list. */
  rankOf?: (hit: Hit, index: number) => number
  /** What the score column shows; default the server's raw score. */
  score?: ScoreColumn
  empty?: React.ReactNode
  className?: string
  /** Judging into a golden set: a grade column, and keys 0–3 / Delete judge the selected hit. */
  judging?: Judging | null | undefined
  /** Rows rendered beyond each edge of the view. */
  overscan?: number
  /**
   * The scroll box's height when its owner knows it in advance: the list then renders its first
   * rows without reading the layout (see `observeSizeLazily`).
   */
  initialHeight?: number
}

/** The score column: its header, the header's tooltip and each row's text. */
export interface ScoreColumn {
  label: string
  title: string
  text: (hit: Hit) => string
}

const RAW_SCORE: ScoreColumn = {
  label: 'Score',
  title: 'The score the server gave the hit (– when it gave none)',
  text: (hit) => formatScore(hit.score),
}

/**
 * A virtualized list of hit rows (ARIA listbox): only the rows in view are in the DOM. Arrow
 * keys, Home and End move the selection, which opens the hit in the inspector.
 */
export function HitList({
  label,
  hits,
  overlap,
  selectedKey,
  onSelect,
  showServer = true,
  rankOf = (_hit, index) => index + 1,
  score = RAW_SCORE,
  empty,
  className,
  judging,
  overscan = 12,
  initialHeight,
}: HitListProps): React.JSX.Element {
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

  if (hits.length === 0) {
    return (
      <div className={cx('hit-list hit-list--empty', className)}>
        {empty ?? <EmptyState title="No hits" />}
      </div>
    )
  }
  const optionId = (index: number): string => `${id}-${index}`
  return (
    <div
      className={cx(
        'hit-list-frame',
        !showServer && 'hit-list--narrow',
        judging && 'hit-list--judging',
        className,
      )}
    >
      <div className="hit-list__head">
        <span className="hit-row__rank">#</span>
        <span>Title</span>
        {showServer && <span className="hit-row__where">Source · server</span>}
        <span className="hit-row__score" title={score.title}>
          {score.label}
        </span>
        {judging && (
          <span
            className="hit-row__grade"
            title={`Relevance for “${judging.query}” in ${judging.setName}: 0 not relevant, 1 relevant, 2 highly relevant, 3 perfect. Keys 0–3 judge the selected hit, Delete removes its grade.`}
          >
            Grade
          </span>
        )}
        <span className="hit-row__flags">Flags</span>
      </div>
      <div
        ref={scrollRef}
        className="hit-list"
        role="listbox"
        aria-label={label}
        tabIndex={0}
        aria-activedescendant={selectedIndex >= 0 ? optionId(selectedIndex) : undefined}
        aria-keyshortcuts={judging ? '0 1 2 3 Delete' : undefined}
        onKeyDown={(event) => {
          const selectedHit = hits[selectedIndex]
          if (judging && selectedHit && !event.ctrlKey && !event.metaKey && !event.altKey) {
            const grade = event.key === 'Delete' ? null : gradeOfKey(event.key)
            if (grade !== undefined) {
              event.preventDefault()
              judging.onGrade(selectedHit, grade)
              return
            }
          }
          const moves: Record<string, number> = {
            ArrowDown: selectedIndex + 1,
            ArrowUp: Math.max(0, selectedIndex - 1),
            Home: 0,
            End: hits.length - 1,
            PageDown: selectedIndex + 10,
            PageUp: Math.max(0, selectedIndex - 10),
          }
          const target = moves[event.key]
          if (target === undefined) return
          event.preventDefault()
          const hit = hits[Math.min(hits.length - 1, target)]
          if (hit) onSelect(hit)
        }}
      >
        <div className="hit-list__sizer" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const hit = hits[item.index]!
            return (
              <HitRow
                key={item.key}
                id={optionId(item.index)}
                hit={hit}
                rank={rankOf(hit, item.index)}
                score={score.text(hit)}
                providers={overlap}
                selected={item.index === selectedIndex}
                showServer={showServer}
                top={item.start}
                index={item.index}
                count={hits.length}
                onSelect={onSelect}
                grade={judging?.gradeOf(hit)}
                onGrade={judging?.onGrade}
              />
            )
          })}
        </div>
      </div>
    </div>
  )
}
