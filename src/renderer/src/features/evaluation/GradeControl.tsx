import { useRef } from 'react'
import { GRADES, type Grade } from '#shared/model/evaluation'
import { cx } from '../../ui'
import { GRADE_LABELS } from './grades'
import './GradeControl.css'

export interface GradeControlProps {
  /** What is judged, for the group's accessible name: `Relevance of “VPN setup”`. */
  subject: string
  grade: Grade | undefined
  onGrade: (grade: Grade | null) => void
  /**
   * Digits only, out of the tab order: inside a hit row, where the list's own keys (0–3)
   * judge the selected hit. Choosing the grade shown again removes the judgment.
   */
  compact?: boolean
}

/**
 * A graded relevance control (ARIA radio group): not relevant / relevant / highly relevant / perfect. One tab
 * stop; arrow keys move and choose, as in any radio group.
 */
export function GradeControl({
  subject,
  grade,
  onGrade,
  compact = false,
}: GradeControlProps): React.JSX.Element {
  const ref = useRef<HTMLDivElement>(null)
  const focusable = grade ?? 0
  return (
    <div
      ref={ref}
      role="radiogroup"
      aria-label={`Relevance of “${subject}”`}
      className={cx('grade-control', compact && 'grade-control--compact')}
      onKeyDown={(event) => {
        if (compact) return
        const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key]
        if (step === undefined) return
        event.preventDefault()
        // From the focused option: a grade just chosen may not be saved (and shown) yet.
        const from = Number((event.target as HTMLElement).dataset.grade ?? focusable)
        const next = GRADES[(from + step + GRADES.length) % GRADES.length]!
        onGrade(next)
        ref.current?.querySelector<HTMLElement>(`[data-grade="${next}"]`)?.focus()
      }}
      onClick={(event) => event.stopPropagation()}
    >
      {GRADES.map((value) => (
        <button
          key={value}
          type="button"
          role="radio"
          data-grade={value}
          aria-checked={grade === value}
          aria-label={GRADE_LABELS[value]}
          title={`${value}: ${GRADE_LABELS[value]}${compact ? ' (keys 0–3 on the list)' : ''}`}
          tabIndex={compact ? -1 : value === focusable ? 0 : -1}
          className={cx('grade-control__option', `grade-control__option--${value}`)}
          onClick={() => onGrade(compact && grade === value ? null : value)}
        >
          {compact ? value : `${value} ${GRADE_LABELS[value].replace(' relevant', '')}`}
        </button>
      ))}
    </div>
  )
}
