import { useEffect, useState } from 'react'
import type { ServerSearchResult } from '../../../../shared/model/operations'
import { plural } from '../../lib/format'
import { Badge, cx, Spinner, Table } from '../../ui'
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

/** One bar per server: when it answered, how many hits, and its status or error. */
export function LatencyWaterfall({ run }: { run: SearchRun }): React.JSX.Element {
  const elapsed = useElapsed(run)
  const rows = waterfallRows(run)
  const scale = waterfallScale([
    ...run.servers.map((s) => s.latencyMs),
    ...(run.phase === 'running' ? [elapsed] : []),
  ])
  return (
    <Table label="Latency by server" className="waterfall">
      <thead>
        <tr>
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
        {rows.map(({ server, result }) => (
          <tr key={server} aria-label={server}>
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
        ))}
      </tbody>
    </Table>
  )
}
