import { useVirtualizer } from '@tanstack/react-virtual'
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { ServerSearchResult } from '#shared/model/operations'
import type { Hit } from '#shared/model/rag'
import { Badge, EmptyState } from '../../ui'
import type { Judging } from '../evaluation/use-judging'
import { HitList } from './HitList'
import { providerOverlap, type OverlapIndex, type ProviderOverlap } from './overlap'
import { formatMs } from './waterfall'
import './HitList.css'

export interface ProviderColumnsProps {
  servers: readonly ServerSearchResult[]
  overlap: OverlapIndex
  selectedKey: string | null
  onSelect: (hit: Hit) => void
  judging?: Judging | null | undefined
}

function ColumnHead({ result, counts }: { result: ServerSearchResult; counts: ProviderOverlap }) {
  const { shared, only } = counts
  return (
    <div className="provider__head">
      <code className="provider__name">{result.server}</code>
      <span className="muted">{formatMs(result.latencyMs)}</span>
      {result.ok ? (
        <span
          className="provider__overlap"
          title="Documents other providers returned too / only this one"
        >
          <Badge tone="info">{shared} shared</Badge>
          <Badge>{only} only</Badge>
        </span>
      ) : (
        <Badge tone="bad" dot>
          {result.error?.code ?? 'failed'}
        </Badge>
      )}
    </div>
  )
}

/** A column is at least this wide; rows at least this tall (they share the height when all fit). */
const MIN_COLUMN = 320
const MIN_ROW = 220
/** A row whose providers have no hits (or failed) needs room for their message only. */
const QUIET_ROW = 112
const GAP = 10

/**
 * Each grid row's height: rows whose providers have no hits get {@link QUIET_ROW}; the rows with
 * hits share the rest of the box's height, at least {@link MIN_ROW} each.
 */
export function providerRowHeights(withHits: readonly boolean[], boxHeight: number): number[] {
  const quiet = withHits.filter((hits) => !hits).length
  const busy = withHits.length - quiet
  const free = boxHeight - GAP * (withHits.length - 1) - quiet * QUIET_ROW
  const each = busy > 0 ? Math.max(MIN_ROW, Math.floor(free / busy)) : MIN_ROW
  return withHits.map((hits) => (hits ? each : QUIET_ROW))
}
/** What a column spends above its rows: its head, the list's header row and borders. */
const COLUMN_CHROME = 56
/**
 * A column shows four or five rows; one more either side is enough, as a scrolled list renders
 * its new rows in the scroll event itself. Columns mount by the dozen while the grid scrolls.
 */
const COLUMN_OVERSCAN = 1

/** The box's size, read before the first paint and whenever it changes. */
function useBoxSize(ref: React.RefObject<HTMLElement | null>): { width: number; height: number } {
  const [size, setSize] = useState({ width: 0, height: 0 })
  useLayoutEffect(() => {
    const element = ref.current
    if (!element) return
    const read = (): void => setSize({ width: element.clientWidth, height: element.clientHeight })
    read()
    const observer = new ResizeObserver(read)
    observer.observe(element)
    return () => observer.disconnect()
  }, [ref])
  return size
}

/**
 * Each provider's own ranking side by side, with what it shares with the others. The grid is
 * virtualized by rows: with 500 providers only the rows in view hold columns (each column a
 * virtualized list itself).
 */
export function ProviderColumns({
  servers,
  overlap,
  selectedKey,
  onSelect,
  judging,
}: ProviderColumnsProps): React.JSX.Element {
  const scrollRef = useRef<HTMLDivElement>(null)
  const box = useBoxSize(scrollRef)
  // Providers with hits first (those are compared), then empty ones, then failures; by name.
  const ordered = useMemo(() => {
    const group = (r: ServerSearchResult): number => (!r.ok ? 2 : r.hits.length === 0 ? 1 : 0)
    return [...servers].sort((a, b) => group(a) - group(b) || a.server.localeCompare(b.server))
  }, [servers])
  // Worked out for the columns that show, once per answer that arrives (not on every mount).
  const countsOf = useMemo(() => {
    const counts = new Map<ServerSearchResult, ProviderOverlap>()
    return (result: ServerSearchResult): ProviderOverlap => {
      let found = counts.get(result)
      if (!found) counts.set(result, (found = providerOverlap(overlap, result)))
      return found
    }
  }, [overlap])
  const perRow = Math.max(1, Math.floor((box.width + GAP) / (MIN_COLUMN + GAP)))
  const rowCount = Math.ceil(ordered.length / perRow)
  const heights = useMemo(() => {
    const withHits = Array.from({ length: rowCount }, (_, row) =>
      ordered.slice(row * perRow, (row + 1) * perRow).some((r) => r.ok && r.hits.length > 0),
    )
    return providerRowHeights(withHits, box.height)
  }, [ordered, perRow, rowCount, box.height])
  // The virtualizer re-renders this grid on scroll by design; cells get plain values only.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: (index) => (heights[index] ?? MIN_ROW) + GAP,
    overscan: 1,
  })
  useEffect(() => virtualizer.measure(), [virtualizer, heights])

  if (servers.length === 0) {
    return <EmptyState icon="servers" title="No server has answered yet" />
  }
  return (
    <div ref={scrollRef} className="providers">
      <div className="providers__sizer" style={{ height: virtualizer.getTotalSize() - GAP }}>
        {/* Until the box is measured (before the first paint) a layout would be a wrong guess. */}
        {box.width > 0 &&
          virtualizer.getVirtualItems().map((item) => (
            <div
              key={item.key}
              className="providers__row"
              style={{
                height: heights[item.index],
                transform: `translateY(${item.start}px)`,
                gridTemplateColumns: `repeat(${perRow}, minmax(0, 1fr))`,
              }}
            >
              {ordered.slice(item.index * perRow, (item.index + 1) * perRow).map((result) => (
                <ProviderColumn
                  key={result.server}
                  result={result}
                  counts={countsOf(result)}
                  listHeight={heights[item.index]! - COLUMN_CHROME}
                  overlap={overlap}
                  selectedKey={selectedKey}
                  onSelect={onSelect}
                  judging={judging}
                />
              ))}
            </div>
          ))}
      </div>
    </div>
  )
}

/** One provider's column; memoized, so scrolling the grid re-renders only the rows it mounts. */
const ProviderColumn = memo(function ProviderColumn({
  result,
  counts,
  listHeight,
  overlap,
  selectedKey,
  onSelect,
  judging,
}: Omit<ProviderColumnsProps, 'servers'> & {
  result: ServerSearchResult
  counts: ProviderOverlap
  /** The height the column's list gets, known before it is laid out. */
  listHeight: number
}): React.JSX.Element {
  return (
    <section className="provider" aria-label={`Hits from ${result.server}`}>
      <ColumnHead result={result} counts={counts} />
      <HitList
        label={`${result.server} hits`}
        hits={result.hits}
        overlap={overlap}
        selectedKey={selectedKey}
        onSelect={onSelect}
        showServer={false}
        judging={judging}
        overscan={COLUMN_OVERSCAN}
        initialHeight={listHeight}
        empty={
          <p className="provider__empty">
            {result.ok ? 'No hits.' : (result.error?.message ?? 'The search failed here.')}
          </p>
        }
      />
    </section>
  )
})
