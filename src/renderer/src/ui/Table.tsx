import { cx } from './cx'
import './Table.css'

export interface TableProps extends React.ComponentPropsWithRef<'table'> {
  /** The table's accessible name. */
  label: string
  /** Let the table scroll inside its own box (sticky header). */
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
  return (
    <div className={cx('ui-table-wrap', scroll && 'ui-table-wrap--scroll')}>
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
