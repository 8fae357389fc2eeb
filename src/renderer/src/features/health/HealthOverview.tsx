import type { ServerHealth } from '../../../../shared/model/server'
import { TimeAgo } from '../../lib/TimeAgo'
import { StatusBadge, Table } from '../../ui'
import { formatMs } from '../servers/server-view'
import { formatPercent, headroom } from './health-view'

export interface HealthOverviewProps {
  servers: readonly ServerHealth[]
  onSelect: (server: string) => void
}

/** Every server in one table: state, uptime, calls, error rate, latency, headroom. */
export function HealthOverview({ servers, onSelect }: HealthOverviewProps): React.JSX.Element {
  return (
    <Table label="Health of every server" className="health-overview">
      <thead>
        <tr>
          <th>Server</th>
          <th>Status</th>
          <th className="num">Uptime</th>
          <th className="num">Calls</th>
          <th className="num">Error rate</th>
          <th className="num">p50</th>
          <th className="num">p95</th>
          <th className="num">p99</th>
          <th>Last success</th>
          <th>Last failure</th>
          <th className="num">Rate limit left</th>
        </tr>
      </thead>
      <tbody>
        {servers.map((h) => {
          const o = h.overall
          const room = headroom(h.rateLimit)
          const latency = (ms: number): string => (o.latency.count > 0 ? formatMs(ms) : '–')
          return (
            <tr key={h.server} aria-label={h.server}>
              <td>
                <button
                  type="button"
                  className="health-overview__server"
                  onClick={() => onSelect(h.server)}
                  aria-label={`Show health of ${h.server}`}
                >
                  {h.server}
                </button>
              </td>
              <td>
                <StatusBadge status={h.status.state} />
              </td>
              <td className="num">{formatPercent(h.uptime)}</td>
              <td className="num">{o.calls}</td>
              <td className="num">{formatPercent(o.errorRate)}</td>
              <td className="num">{latency(o.latency.p50)}</td>
              <td className="num">{latency(o.latency.p95)}</td>
              <td className="num">{latency(o.latency.p99)}</td>
              <td>
                <TimeAgo at={o.lastSuccessAt} />
              </td>
              <td title={o.lastError?.message}>
                <TimeAgo at={o.lastErrorAt} />
              </td>
              <td className="num">
                {room ? `${room.remaining} / ${room.limit} (${formatPercent(room.ratio)})` : '–'}
              </td>
            </tr>
          )
        })}
      </tbody>
    </Table>
  )
}
