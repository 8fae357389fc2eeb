export interface RowPickProps {
  picked: boolean
  onPick: () => void
  title?: string
  children: React.ReactNode
}

/** The link-like button that picks a table's row (a set, a query, a run) to show it. */
export function RowPick({ picked, onPick, title, children }: RowPickProps): React.JSX.Element {
  return (
    <button
      type="button"
      className="eval-link"
      aria-pressed={picked}
      title={title}
      onClick={onPick}
    >
      {children}
    </button>
  )
}
