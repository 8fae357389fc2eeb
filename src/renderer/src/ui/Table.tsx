import { useRef } from 'react'
import { cx } from './cx'
import { useScrollRegion } from './scroll-region'
import './Table.css'

export interface TableProps extends React.ComponentPropsWithRef<'table'> {
  /** The table's accessible name. */
  label: string
  /**
   * Let the table scroll inside its own box (sticky header); while it overflows, the box is a
   * keyboard stop so arrow keys can scroll it.
   */
  scroll?: boolean
}

/** A dense data table: 28px rows, sticky header when scrolling, numeric cells right-aligned. */
export function Table({
  label,
  scroll,
  className,
  children,
  ...rest
}: TableProps): React.JSX.Element {
  const ref = useRef<HTMLDivElement>(null)
  const region = useScrollRegion(ref, label, scroll)
  return (
    <div ref={ref} className={cx('ui-table-wrap', scroll && 'ui-table-wrap--scroll')} {...region}>
      <table className={cx('ui-table', className)} aria-label={label} {...rest}>
        {children}
      </table>
    </div>
  )
}

/** A row spanning the table, for "nothing here" and loading messages. */
export function EmptyRow({
  colSpan,
  children,
}: {
  colSpan: number
  children: React.ReactNode
}): React.JSX.Element {
  return (
    <tr className="ui-table__empty">
      <td colSpan={colSpan}>{children}</td>
    </tr>
  )
}
