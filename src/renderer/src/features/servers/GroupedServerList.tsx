import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useMemo, useRef, useState } from 'react'
import type { ServerSummary } from '#shared/model/server'
import { plural } from '../../lib/format'
import { Badge, Icon } from '../../ui'
import type { ItemGroup } from './server-groups'

type Row =
  | { kind: 'group'; group: ItemGroup<ServerSummary>; collapsed: boolean }
  | { kind: 'server'; server: ServerSummary }

export interface GroupedServerListProps {
  groups: readonly ItemGroup<ServerSummary>[]
  /** Show group headers (off when everything is one group). */
  headers: boolean
  /** The server to bring into view (its card may not be rendered yet). */
  focus: string | null
  renderServer: (server: ServerSummary) => React.ReactNode
}

/** A card is about this tall until it is measured; sources make some taller. */
const CARD_ESTIMATE = 150
const HEADER_HEIGHT = 34

/**
 * Server cards in collapsible groups, virtualized: only the cards in view (and a few around)
 * are in the page, each measured once rendered, so 200 servers cost what a dozen do.
 */
export function GroupedServerList({
  groups,
  headers,
  focus,
  renderServer,
}: GroupedServerListProps): React.JSX.Element {
  const scrollRef = useRef<HTMLDivElement>(null)
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set())
  const rows = useMemo(() => {
    const out: Row[] = []
    for (const group of groups) {
      const closed = headers && collapsed.has(group.key)
      if (headers) out.push({ kind: 'group', group, collapsed: closed })
      if (!closed) for (const server of group.items) out.push({ kind: 'server', server })
    }
    return out
  }, [groups, headers, collapsed])
  // The virtualizer re-renders this list on scroll by design; rows get plain values only.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => (rows[index]?.kind === 'group' ? HEADER_HEIGHT : CARD_ESTIMATE),
    getItemKey: (index) => {
      const row = rows[index]!
      return row.kind === 'group' ? `group:${row.group.key}` : row.server.id
    },
    overscan: 4,
  })

  useEffect(() => {
    if (!focus) return
    const index = rows.findIndex((row) => row.kind === 'server' && row.server.id === focus)
    if (index >= 0) virtualizer.scrollToIndex(index, { align: 'start' })
  }, [focus, rows, virtualizer])

  const toggle = (key: string): void =>
    setCollapsed((before) => {
      const next = new Set(before)
      if (next.has(key)) next.delete(key)
      else next.add(key)
      return next
    })

  return (
    <div ref={scrollRef} className="servers__list" aria-label="Servers list">
      <div className="servers__sizer" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index]!
          return (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className="servers__row"
              // Placed with `top`, not a transform: a sticky table header inside a card is laid
              // out where the card really is (under a transform it sticks to the wrong place).
              style={{ top: item.start }}
            >
              {row.kind === 'group' ? (
                <GroupHeader group={row.group} collapsed={row.collapsed} onToggle={toggle} />
              ) : (
                renderServer(row.server)
              )}
            </div>
          )
        })}
      </div>
    </div>
  )
}

function GroupHeader({
  group,
  collapsed,
  onToggle,
}: {
  group: ItemGroup<ServerSummary>
  collapsed: boolean
  onToggle: (key: string) => void
}): React.JSX.Element {
  return (
    <h2 className="servers__group">
      <button
        type="button"
        aria-expanded={!collapsed}
        className="servers__group-toggle"
        onClick={() => onToggle(group.key)}
      >
        <Icon name={collapsed ? 'chevronRight' : 'chevronDown'} />
        <span className="servers__group-name">{group.label}</span>
        <span className="muted">{plural(group.items.length, 'server')}</span>
        {group.attention > 0 && <Badge tone="warn">{group.attention} need attention</Badge>}
      </button>
    </h2>
  )
}
