import type { Hit } from '#shared/model/rag'
import { cx, EmptyState } from '../../ui'
import type { Judging } from '../evaluation/use-judging'
import { HitRow } from './HitRow'
import type { OverlapIndex } from './overlap'
import { RAW_SCORE, type ScoreColumn } from './score-columns'
import { useHitList } from './use-hit-list'
import './HitList.css'

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
  const { scrollRef, virtualizer, selectedIndex, optionId, onKeyDown } = useHitList({
    hits,
    selectedKey,
    onSelect,
    judging,
    overscan,
    initialHeight,
  })

  if (hits.length === 0) {
    return (
      <div className={cx('hit-list hit-list--empty', className)}>
        {empty ?? <EmptyState title="No hits" />}
      </div>
    )
  }
  return (
    <div
      className={cx(
        'hit-list-frame',
        !showServer && 'hit-list--narrow',
        judging && 'hit-list--judging',
        className,
      )}
    >
      <HitListHead showServer={showServer} score={score} judging={judging} />
      <div
        ref={scrollRef}
        className="hit-list"
        role="listbox"
        aria-label={label}
        tabIndex={0}
        aria-activedescendant={selectedIndex >= 0 ? optionId(selectedIndex) : undefined}
        aria-keyshortcuts={judging ? '0 1 2 3 Delete' : undefined}
        onKeyDown={onKeyDown}
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

/** The column headers; the grade's tooltip says what each grade means and which keys give it. */
function HitListHead({
  showServer,
  score,
  judging,
}: {
  showServer: boolean
  score: ScoreColumn
  judging: Judging | null | undefined
}): React.JSX.Element {
  return (
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
  )
}
