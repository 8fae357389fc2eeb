import type { ServerHealth } from '#shared/model/server'
import { TimeAgo } from '../../lib/TimeAgo'
import { StatusBadge } from '../../ui'
import { describeRateLimit, formatMs, statusLabel } from '../servers/server-view'
import { ErrorTable } from './ErrorTable'
import {
  describeWindow,
  formatUptime,
  headroom,
  isCharted,
  sortOperations,
  type TimeAxis,
} from './health-view'
import { OperationChart } from './OperationChart'

export interface ServerHealthSectionProps {
  health: ServerHealth
  /** The time axis every chart of the panel shares. */
  axis: TimeAxis | null
}

/** One server's health: uptime, rate-limit headroom, a latency chart per operation, errors. */
export function ServerHealthSection({ health, axis }: ServerHealthSectionProps): React.JSX.Element {
  const span = describeWindow(health.windowMs)
  const operations = sortOperations(health.operations)
  const room = headroom(health.rateLimit)
  const { p50, p95, p99, count } = health.overall.latency
  return (
    <section className="health-server" aria-label={`Health of ${health.server}`}>
      <div className="health-server__head">
        <h2>{health.server}</h2>
        <StatusBadge status={health.status.state} label={statusLabel(health.status)} />
        <dl className="health-server__facts">
          <div>
            <dt>Uptime</dt>
            <dd>{formatUptime(health.uptime)}</dd>
          </div>
          <div>
            <dt>Connected</dt>
            <dd>{health.connectedSince ? <TimeAgo at={health.connectedSince} /> : 'no'}</dd>
          </div>
          <div>
            <dt>p50 / p95 / p99, last {span}</dt>
            <dd>{count > 0 ? `${formatMs(p50)} / ${formatMs(p95)} / ${formatMs(p99)}` : '–'}</dd>
          </div>
          <div>
            <dt>Rate limit</dt>
            <dd>
              {room && (
                <span
                  className="health-server__meter"
                  aria-hidden="true"
                  data-low={room.ratio < 0.1 || undefined}
                >
                  <span style={{ width: `${room.ratio * 100}%` }} />
                </span>
              )}
              {describeRateLimit(health.rateLimit) ?? 'no limit reported'}
            </dd>
          </div>
        </dl>
      </div>
      {operations.length === 0 ? (
        <p className="muted">No calls yet: charts appear once it is searched or probed.</p>
      ) : (
        <>
          <div className="health-server__charts">
            {operations.filter(isCharted).map((op) => (
              <OperationChart
                key={op.operation}
                server={health.server}
                operation={op}
                axis={axis}
              />
            ))}
          </div>
          <ErrorTable server={health.server} operations={operations} span={span} />
        </>
      )}
    </section>
  )
}
