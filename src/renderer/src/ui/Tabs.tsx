import { useRef } from 'react'
import { cx } from './cx'
import './Tabs.css'

export interface TabSpec<T extends string> {
  id: T
  label: React.ReactNode
  /** A count or badge after the label. */
  extra?: React.ReactNode
}

export interface TabsProps<T extends string> {
  /** Accessible name of the tab list. */
  label: string
  /** Prefix of the tab and panel ids; pair with {@link TabPanel}'s `idBase`. */
  idBase: string
  tabs: readonly TabSpec<T>[]
  selected: T
  onSelect: (id: T) => void
  className?: string
}

export const tabId = (idBase: string, id: string): string => `${idBase}-tab-${id}`
export const panelId = (idBase: string, id: string): string => `${idBase}-panel-${id}`

/**
 * A tab list (ARIA tabs pattern): one tab stop, arrow keys and Home/End move and select.
 */
export function Tabs<T extends string>({
  label,
  idBase,
  tabs,
  selected,
  onSelect,
  className,
}: TabsProps<T>): React.JSX.Element {
  const listRef = useRef<HTMLDivElement>(null)
  const move = (index: number): void => {
    const tab = tabs[(index + tabs.length) % tabs.length]
    if (!tab) return
    onSelect(tab.id)
    listRef.current?.querySelector<HTMLElement>(`#${CSS.escape(tabId(idBase, tab.id))}`)?.focus()
  }
  const current = tabs.findIndex((tab) => tab.id === selected)
  return (
    <div
      ref={listRef}
      role="tablist"
      aria-label={label}
      className={cx('ui-tabs', className)}
      onKeyDown={(event) => {
        const keys: Record<string, number> = {
          ArrowRight: current + 1,
          ArrowLeft: current - 1,
          Home: 0,
          End: tabs.length - 1,
        }
        const target = keys[event.key]
        if (target === undefined) return
        event.preventDefault()
        move(target)
      }}
    >
      {tabs.map((tab) => (
        <button
          key={tab.id}
          type="button"
          role="tab"
          id={tabId(idBase, tab.id)}
          aria-selected={tab.id === selected}
          aria-controls={panelId(idBase, tab.id)}
          tabIndex={tab.id === selected ? 0 : -1}
          className="ui-tabs__tab"
          onClick={() => onSelect(tab.id)}
        >
          {tab.label}
          {tab.extra}
        </button>
      ))}
    </div>
  )
}

export interface TabPanelProps {
  idBase: string
  id: string
  selected: boolean
  /** Keep the content mounted while hidden (editors keep their undo history). */
  keepMounted?: boolean
  className?: string
  children: React.ReactNode
}

/** The panel of one tab; hidden panels are either unmounted or kept with `hidden`. */
export function TabPanel({
  idBase,
  id,
  selected,
  keepMounted = false,
  className,
  children,
}: TabPanelProps): React.JSX.Element | null {
  if (!selected && !keepMounted) return null
  return (
    <div
      role="tabpanel"
      id={panelId(idBase, id)}
      aria-labelledby={tabId(idBase, id)}
      hidden={!selected}
      className={cx('ui-tabpanel', className)}
    >
      {children}
    </div>
  )
}
