import { memo } from 'react'
import type { Grade } from '#shared/model/evaluation'
import type { Hit } from '#shared/model/rag'
import { Badge, cx } from '../../ui'
import { GradeControl } from '../evaluation/GradeControl'
import { alsoReturnedBy, foundBy, foundText, type OverlapIndex } from './overlap'

export interface HitRowProps {
  id: string
  hit: Hit
  rank: number
  /** The score column's text. */
  score: string
  providers: OverlapIndex
  selected: boolean
  showServer: boolean
  /** Offset inside the virtual list. */
  top: number
  index: number
  count: number
  onSelect: (hit: Hit) => void
  /** Judging is on: the hit's grade (undefined: not judged). */
  grade?: Grade | undefined
  /** Judging is on: changes the hit's grade (null removes it). */
  onGrade?: ((hit: Hit, grade: Grade | null) => void) | undefined
}

/**
 * One hit: rank, title over its snippet, source and server, score, overlap and flags. Text only,
 * never HTML.
 */
export const HitRow = memo(function HitRow({
  id,
  hit,
  rank,
  score,
  providers,
  selected,
  showServer,
  top,
  index,
  count,
  onSelect,
  grade,
  onGrade,
}: HitRowProps): React.JSX.Element {
  const found = foundBy(hit, providers)
  const suspicious = hit.flags.includes('suspicious')
  return (
    <div
      id={id}
      role="option"
      aria-selected={selected}
      aria-setsize={count}
      aria-posinset={index + 1}
      className={cx(
        'hit-row',
        selected && 'hit-row--selected',
        suspicious && 'hit-row--suspicious',
      )}
      style={{ transform: `translateY(${top}px)` }}
      onClick={() => onSelect(hit)}
    >
      <span className="hit-row__rank">{rank}</span>
      <span className="hit-row__main">
        <span className="hit-row__title" title={hit.title}>
          {hit.title || <span className="muted">(untitled)</span>}
          {hit.derived.title && (
            <span className="hit-row__derived" title="Title derived by the console from the text">
              derived
            </span>
          )}
        </span>
        <span className="hit-row__snippet">{hit.snippet}</span>
      </span>
      <span
        className="hit-row__where"
        title={`${hit.sourceId ?? `source not named by ${hit.server}`} · ${hit.server}`}
      >
        {hit.sourceId ?? (
          <span className="muted" title={`${hit.server} did not name the source`}>
            –
          </span>
        )}
        {showServer && <span className="muted"> · {hit.server}</span>}
      </span>
      <span className="hit-row__score">{score}</span>
      {onGrade && (
        <span className="hit-row__grade">
          <GradeControl
            compact
            subject={hit.title || hit.id}
            grade={grade}
            onGrade={(next) => onGrade(hit, next)}
          />
        </span>
      )}
      <span className="hit-row__flags">
        {found.providers.length > 1 ? (
          <Badge
            tone="info"
            title={`${found.places === undefined ? '' : `${foundText(found)}. `}${alsoReturnedBy(found.providers, hit.server)}`}
          >
            ×{found.providers.length}
          </Badge>
        ) : null}
        {suspicious && (
          <Badge tone="bad" title="Reads like instructions to a model (possible prompt injection)">
            {showServer ? 'suspicious' : 'susp.'}
          </Badge>
        )}
        {hit.violations.length > 0 && (
          <Badge
            tone="warn"
            title={hit.violations.map((v) => `${v.path}: ${v.message}`).join('\n')}
          >
            {hit.violations.length}
            {showServer ? ` violation${hit.violations.length === 1 ? '' : 's'}` : ' viol.'}
          </Badge>
        )}
      </span>
    </div>
  )
})
