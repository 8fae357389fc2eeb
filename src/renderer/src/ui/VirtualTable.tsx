import { useVirtualizer, type VirtualItem, type Virtualizer } from '@tanstack/react-virtual'
import { useRef } from 'react'
import { cx } from './cx'
import './Table.css'

/** One column of a {@link VirtualTable}. */
export interface Column<T> {
  id: string
  header: React.ReactNode
  /** A CSS width for the column (`120px`, `30%`); the rest share what is left. */
  width?: string
  /** `num` right-aligns tabular figures; anything else is added to the cells. */
  className?: string
  cell: (row: T) => React.ReactNode
  /** The cell's whole text as a tooltip, for cells cut to fit (one line, ellipsised). */
  title?: (row: T) => string | undefined
}

export interface VirtualTableProps<T> {
  /** The table's accessible name. */
  label: string
  rows: readonly T[]
  columns: readonly Column<T>[]
  rowKey: (row: T) => string
  /** An accessible name per row, so a row can be found by what it is about. */
  rowLabel?: (row: T) => string
  /** Shown in the body when there are no rows. */
  empty?: React.ReactNode
  className?: string
}

/** A table row's height before it is measured (28 px rows and their border). */
export const TABLE_ROW_ESTIMATE = 29

/** The rows a table's virtualizer renders, and the heights of the spacer rows around them. */
export function tableWindow(virtualizer: Virtualizer<HTMLDivElement, Element>): {
  items: VirtualItem[]
  before: number
  after: number
} {
  const items = virtualizer.getVirtualItems()
  const before = items[0]?.start ?? 0
  const after = items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1]!.end : 0
  return { items, before, after }
}

/** Stands in for the rows of a virtualized table that are not rendered (none when 0 px). */
export function SpacerRow({ height }: { height: number }): React.JSX.Element | null {
  return height > 0 ? (
    <tr aria-hidden="true" className="ui-vtable__spacer" style={{ height }} />
  ) : null
}

/**
 * A dense table that renders only the rows in view (plus a margin), so thousands of rows
 * scroll smoothly. It keeps real table semantics: the header stays, `aria-rowcount` and
 * `aria-rowindex` tell assistive technology where a row sits in the whole list. The box
 * scrolls by itself: give it a height through its container (it fills a flex column).
 */
export function VirtualTable<T>({
  label,
  rows,
  columns,
  rowKey,
  rowLabel,
  empty,
  className,
}: VirtualTableProps<T>): React.JSX.Element {
  const scrollRef = useRef<HTMLDivElement>(null)
  // TanStack Virtual returns functions React Compiler cannot memoise; this component does not
  // rely on memoisation.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => TABLE_ROW_ESTIMATE,
    overscan: 12,
  })
  const { items, before, after } = tableWindow(virtualizer)
  return (
    <div
      ref={scrollRef}
      className={cx('ui-table-wrap ui-table-wrap--scroll ui-vtable', className)}
      // The box scrolls: it must be reachable by keyboard to scroll without a mouse.
      tabIndex={0}
      role="group"
      aria-label={`${label}, scrollable`}
    >
      <table
        className="ui-table ui-vtable__table"
        aria-label={label}
        aria-rowcount={rows.length + 1}
      >
        <colgroup>
          {columns.map((column) => (
            <col key={column.id} style={column.width ? { width: column.width } : undefined} />
          ))}
        </colgroup>
        <thead>
          <tr aria-rowindex={1}>
            {columns.map((column) => (
              <th key={column.id} scope="col" className={column.className}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 && (
            <tr className="ui-table__empty">
              <td colSpan={columns.length}>{empty ?? 'Nothing to show'}</td>
            </tr>
          )}
          <SpacerRow height={before} />
          {items.map((item) => {
            const row = rows[item.index]!
            return (
              <tr
                key={rowKey(row)}
                data-index={item.index}
                ref={virtualizer.measureElement}
                aria-rowindex={item.index + 2}
                aria-label={rowLabel?.(row)}
              >
                {columns.map((column) => (
                  <td key={column.id} className={column.className} title={column.title?.(row)}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            )
          })}
          <SpacerRow height={after} />
        </tbody>
      </table>
    </div>
  )
}
