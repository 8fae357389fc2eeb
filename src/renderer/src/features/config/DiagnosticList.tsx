import type { Diagnostic } from '#shared/model/registry'
import { Icon } from '../../ui'
import './DiagnosticList.css'

export interface DiagnosticListProps {
  diagnostics: readonly Diagnostic[]
  /** Show at most this many; the rest are counted. */
  max?: number
}

/** Registry diagnostics as a compact list: severity icon and the located message. */
export function DiagnosticList({ diagnostics, max = 30 }: DiagnosticListProps): React.JSX.Element {
  const hidden = diagnostics.length - max
  return (
    <ul className="diagnostic-list">
      {diagnostics.slice(0, max).map((d, i) => (
        <li key={i} className={`diagnostic-list__item diagnostic-list__item--${d.severity}`}>
          <Icon name={d.severity === 'error' ? 'error' : 'warning'} />
          <span className="mono">{d.message}</span>
        </li>
      ))}
      {hidden > 0 && <li className="muted">and {hidden} more</li>}
    </ul>
  )
}
