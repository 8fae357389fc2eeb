import type { ServerHealth } from '#shared/model/server'
import { TimeAgo } from '../../lib/TimeAgo'
import { StatusBadge, Table } from '../../ui'
import { formatMs, statusLabel } from '../servers/server-view'
import { describeWindow, formatPercent, formatUptime, headroomCell } from './health-view'

export interface HealthOverviewProps {
  servers: readonly ServerHealth[]
  onSelect: (server: string) => void
}

/** Every server in one table: state, uptime, calls, error rate, latency, headroom. */
export function HealthOverview({ servers, onSelect }: HealthOverviewProps): React.JSX.Element {
  // One window for the whole pool: a group header over the columns it applies to.
  const span = describeWindow(servers[0]?.windowMs ?? 0)
  const inWindow = <span className="visually-hidden"> over the last {span}</span>
  return (
    <Table label="Health of every server" className="health-overview">
      <thead>
        <tr>
          <th rowSpan={2}>Server</th>
          <th rowSpan={2}>Status</th>
          <th rowSpan={2} className="num">
            Uptime
          </th>
          <th className="health-overview__group" aria-hidden="true">
            Since start
          </th>
          <th colSpan={4} className="health-overview__group" aria-hidden="true">
            Last {span}
          </th>
          <th rowSpan={2}>Last success</th>
          <th rowSpan={2}>Last failure</th>
          <th rowSpan={2} className="num">
            Rate limit left
          </th>
        </tr>
        <tr>
          <th className="num">
            Calls<span className="visually-hidden"> since start</span>
          </th>
          <th className="num">Error rate{inWindow}</th>
          <th className="num">p50{inWindow}</th>
          <th className="num">p95{inWindow}</th>
          <th className="num">p99{inWindow}</th>
        </tr>
      </thead>
      <tbody>
        {servers.map((h) => {
          const o = h.overall
          const room = headroomCell(h.rateLimit)
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
                <StatusBadge status={h.status.state} label={statusLabel(h.status)} />
              </td>
              <td className="num">{formatUptime(h.uptime)}</td>
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
              <td className="num" title={room.title}>
                {room.text}
              </td>
            </tr>
          )
        })}
      </tbody>
    </Table>
  )
}
