import { useMemo, useRef } from 'react'
import { useScrollRegion } from '../../ui/scroll-region'
import { diffLines, diffStats, hunks, sideBySide } from './line-diff'
import './Diff.css'

/** Rows past this are not drawn (a registry file this different is better read in full). */
const MAX_ROWS = 3000

export interface TextDiffProps {
  before: string
  after: string
  /** Accessible name of the diff. */
  label: string
}

/** A unified line diff with three lines of context around each change. */
export function TextDiff({ before, after, label }: TextDiffProps): React.JSX.Element {
  const ref = useRef<HTMLDivElement>(null)
  const scroll = useScrollRegion(ref, label)
  const { groups, stats, cut } = useMemo(() => {
    const ops = diffLines(before, after)
    const all = hunks(ops)
    const shown = []
    let rows = 0
    for (const hunk of all) {
      if (rows > MAX_ROWS) break
      rows += hunk.ops.length
      shown.push(hunk)
    }
    return { groups: shown, stats: diffStats(ops), cut: shown.length < all.length }
  }, [before, after])
  if (groups.length === 0) return <p className="muted">The text is unchanged.</p>
  return (
    // A keyboard stop while it scrolls; always a region of its own name.
    <div ref={ref} className="text-diff" {...scroll} role="region" aria-label={label}>
      <div className="text-diff__stats">
        <span className="text-diff__plus">+{stats.added}</span>{' '}
        <span className="text-diff__minus">−{stats.removed}</span> lines
      </div>
      <table className="text-diff__table">
        <colgroup>
          <col className="text-diff__col-no" />
          <col className="text-diff__col-no" />
          <col className="text-diff__col-sign" />
          <col />
        </colgroup>
        <tbody>
          {groups.map((hunk) => {
            return [
              <tr key={`h${hunk.oldStart}:${hunk.newStart}`} className="text-diff__hunk">
                <td colSpan={4}>
                  @@ line {hunk.oldStart} → {hunk.newStart}
                </td>
              </tr>,
              ...hunk.ops.map((op, index) => (
                <tr key={`${hunk.oldStart}:${index}`} className={`text-diff__${op.kind}`}>
                  <td className="text-diff__no">{op.kind !== 'add' ? op.oldNo : ''}</td>
                  <td className="text-diff__no">{op.kind !== 'del' ? op.newNo : ''}</td>
                  <td className="text-diff__sign" aria-label={SIGN_LABEL[op.kind]}>
                    {SIGN[op.kind]}
                  </td>
                  <td className="text-diff__text">{op.text}</td>
                </tr>
              )),
            ]
          })}
        </tbody>
      </table>
      {cut && <p className="muted">The diff is too long to show in full.</p>}
    </div>
  )
}

const SIGN = { equal: ' ', add: '+', del: '−' } as const
const SIGN_LABEL = { equal: 'unchanged', add: 'added', del: 'removed' } as const

export interface SideBySideDiffProps {
  left: string
  right: string
  leftTitle: string
  rightTitle: string
}

/** Two whole texts side by side, changed lines marked and facing each other. */
export function SideBySideDiff({
  left,
  right,
  leftTitle,
  rightTitle,
}: SideBySideDiffProps): React.JSX.Element {
  const rows = useMemo(() => sideBySide(diffLines(left, right)).slice(0, MAX_ROWS), [left, right])
  const ref = useRef<HTMLDivElement>(null)
  const scroll = useScrollRegion(ref, `${leftTitle} and ${rightTitle}`)
  return (
    <div ref={ref} className="side-diff" {...scroll}>
      <table className="side-diff__table">
        <colgroup>
          <col className="text-diff__col-no" />
          <col />
          <col className="text-diff__col-no" />
          <col />
        </colgroup>
        <thead>
          <tr>
            <th colSpan={2} scope="colgroup">
              {leftTitle}
            </th>
            <th colSpan={2} scope="colgroup">
              {rightTitle}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={index}>
              <td className="text-diff__no">{row.left?.no ?? ''}</td>
              <td
                className={row.left?.changed ? 'side-diff__cell text-diff__del' : 'side-diff__cell'}
              >
                {row.left?.changed && <ChangeSign kind="del" />}
                {row.left?.text ?? ''}
              </td>
              <td className="text-diff__no side-diff__split">{row.right?.no ?? ''}</td>
              <td
                className={
                  row.right?.changed ? 'side-diff__cell text-diff__add' : 'side-diff__cell'
                }
              >
                {row.right?.changed && <ChangeSign kind="add" />}
                {row.right?.text ?? ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** A changed line's sign, so the change is not told by its colour alone. */
function ChangeSign({ kind }: { kind: 'add' | 'del' }): React.JSX.Element {
  return (
    <span className="side-diff__sign">
      <span aria-hidden="true">{SIGN[kind]} </span>
      <span className="visually-hidden">{SIGN_LABEL[kind]}: </span>
    </span>
  )
}
