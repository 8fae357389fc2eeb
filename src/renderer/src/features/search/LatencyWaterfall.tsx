import { useVirtualizer } from '@tanstack/react-virtual'
import { useEffect, useRef, useState } from 'react'
import type { ServerSearchResult } from '#shared/model/operations'
import { plural } from '../../lib/format'
import { Badge, cx, SpacerRow, Spinner, Table, TABLE_ROW_ESTIMATE, tableWindow } from '../../ui'
import { waterfallRows, type SearchRun } from './search-run'
import { barPercent, formatMs, waterfallScale } from './waterfall'
import './LatencyWaterfall.css'

/** Elapsed time of a running search, refreshed a few times a second. */
function useElapsed(run: SearchRun): number {
  const [now, setNow] = useState(() => performance.now())
  useEffect(() => {
    if (run.phase !== 'running') return
    const timer = setInterval(() => setNow(performance.now()), 150)
    return () => clearInterval(timer)
  }, [run.phase])
  return Math.max(0, now - run.startedAt)
}

function StatusCell({ result }: { result: ServerSearchResult }): React.JSX.Element {
  if (!result.ok) {
    return (
      <span className="waterfall__status" title={result.error?.message}>
        <Badge tone={result.error?.code === 'cancelled' ? 'neutral' : 'bad'} dot>
          {result.error?.code ?? 'failed'}
        </Badge>
        <span className="waterfall__message">{result.error?.message}</span>
      </span>
    )
  }
  return (
    <span className="waterfall__status">
      <Badge tone="ok" dot>
        ok
      </Badge>
      {result.sourceErrors.length > 0 && (
        <Badge
          tone="warn"
          title={result.sourceErrors.map((e) => `${e.sourceId}: ${e.error.message}`).join('\n')}
        >
          {plural(result.sourceErrors.length, 'source error')}
        </Badge>
      )}
      {result.violations.length > 0 && (
        <Badge
          tone="warn"
          title={result.violations.map((v) => `${v.path}: ${v.message}`).join('\n')}
        >
          {plural(result.violations.length, 'violation')}
        </Badge>
      )}
    </span>
  )
}

/**
 * One bar per server: when it answered, how many hits, and its status or error. Its box shows a
 * handful of rows; only those in view (and a few either side) are in the page, so a search over
 * 500 servers does not keep 500 rows to lay out and repaint while the results scroll.
 */
export function LatencyWaterfall({ run }: { run: SearchRun }): React.JSX.Element {
  const scrollRef = useRef<HTMLDivElement>(null)
  const elapsed = useElapsed(run)
  const rows = waterfallRows(run)
  const scale = waterfallScale([
    ...run.servers.map((s) => s.latencyMs),
    ...(run.phase === 'running' ? [elapsed] : []),
  ])
  // The virtualizer re-renders this table on scroll by design; nothing here relies on memoising.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => TABLE_ROW_ESTIMATE,
    overscan: 8,
  })
  const { items, before, after } = tableWindow(virtualizer)
  return (
    <div
      ref={scrollRef}
      className="latency-waterfall"
      // The box scrolls: it must be reachable by keyboard to scroll without a mouse.
      tabIndex={0}
      role="group"
      aria-label="Latency by server, scrollable"
    >
      <Table label="Latency by server" className="waterfall" aria-rowcount={rows.length + 1}>
        <thead>
          <tr aria-rowindex={1}>
            <th className="waterfall__server">Server</th>
            <th className="waterfall__track-head" aria-label="Latency">
              {scale.ticks.map((tick) => (
                <span
                  key={tick}
                  className="waterfall__tick"
                  style={{ left: `${(tick / scale.maxMs) * 100}%` }}
                >
                  {formatMs(tick)}
                </span>
              ))}
            </th>
            <th className="num waterfall__time">Time</th>
            <th className="num waterfall__hits">Hits</th>
            <th>Status</th>
          </tr>
        </thead>
        <tbody>
          <SpacerRow height={before} />
          {items.map((item) => {
            const { server, result } = rows[item.index]!
            return (
              <tr
                key={server}
                data-index={item.index}
                ref={virtualizer.measureElement}
                aria-rowindex={item.index + 2}
                aria-label={server}
              >
                <td className="waterfall__server">
                  <code>{server}</code>
                </td>
                <td className="waterfall__track">
                  <span
                    className={cx(
                      'waterfall__bar',
                      !result
                        ? 'waterfall__bar--pending'
                        : result.error?.code === 'cancelled'
                          ? 'waterfall__bar--cancelled'
                          : !result.ok && 'waterfall__bar--bad',
                    )}
                    style={{ width: `${barPercent(result ? result.latencyMs : elapsed, scale)}%` }}
                  />
                </td>
                <td className="num">{result ? formatMs(result.latencyMs) : '…'}</td>
                <td className="num">{result ? result.hits.length : ''}</td>
                <td className="waterfall__status-cell">
                  {result ? <StatusCell result={result} /> : <Spinner size={12} label="waiting" />}
                </td>
              </tr>
            )
          })}
          <SpacerRow height={after} />
        </tbody>
      </Table>
    </div>
  )
}
