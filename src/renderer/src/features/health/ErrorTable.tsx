import type { OperationHealth } from '#shared/model/server'
import { TimeAgo } from '../../lib/TimeAgo'
import { Badge, Table } from '../../ui'
import { errorShares, formatPercent } from './health-view'

export interface ErrorTableProps {
  server: string
  operations: readonly OperationHealth[]
  /** The window of the error rate, e.g. `5 min`. */
  span: string
}

/** Per operation of one server: calls, error rate, errors by code, last success and failure. */
export function ErrorTable({ server, operations, span }: ErrorTableProps): React.JSX.Element {
  return (
    <Table label={`Errors by operation of ${server}`} className="health-errors">
      <thead>
        <tr>
          <th>Operation</th>
          <th className="num">Calls since start</th>
          <th className="num">Error rate, last {span}</th>
          <th>Errors by code since start</th>
          <th>Last success</th>
          <th>Last failure</th>
        </tr>
      </thead>
      <tbody>
        {operations.map((op) => {
          const shares = errorShares(op)
          return (
            <tr key={op.operation} aria-label={op.operation}>
              <td>
                <code>{op.operation}</code>
                {op.diagnostic && (
                  <Badge
                    tone="neutral"
                    className="health-errors__diagnostic"
                    title="The console's own checks of this server: left out of its overall figures and its state; an error a probe asked for counts as a success"
                  >
                    console's own
                  </Badge>
                )}
              </td>
              <td className="num">{op.calls}</td>
              <td className="num">
                <span className={op.errorRate > 0 ? 'health-errors__bad' : undefined}>
                  {formatPercent(op.errorRate)}
                </span>
              </td>
              <td>
                {shares.length === 0 ? (
                  <span className="muted">none</span>
                ) : (
                  <span className="health-errors__codes">
                    {shares.map((s) => (
                      <Badge
                        key={s.code}
                        tone={s.refusal ? 'warn' : 'bad'}
                        title={`${s.count} of ${op.calls} calls since start (${formatPercent(s.share)})${
                          s.refusal
                            ? '; refused by the server: rights or credentials, not its health'
                            : ''
                        }`}
                      >
                        {s.code} {s.count}
                      </Badge>
                    ))}
                  </span>
                )}
              </td>
              <td>
                <TimeAgo at={op.lastSuccessAt} />
              </td>
              <td title={op.lastError?.message}>
                <TimeAgo at={op.lastErrorAt} />
                {op.lastError && (
                  <span className="health-errors__last muted">{op.lastError.message}</span>
                )}
              </td>
            </tr>
          )
        })}
      </tbody>
    </Table>
  )
}
