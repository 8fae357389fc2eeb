import type { ServerSummary } from '../../../../shared/model/server'
import { Button, cx, Icon, type IconName } from '../../ui'
import { adviceFor, type Remedy } from './server-view'

const REMEDY: Record<Remedy, { label: string; icon: IconName }> = {
  'set-secrets': { label: 'Set its key…', icon: 'key' },
  reconnect: { label: 'Reconnect', icon: 'refresh' },
  enable: { label: 'Enable', icon: 'check' },
  'show-log': { label: 'Show log', icon: 'file' },
  'open-health': { label: 'Open Health', icon: 'health' },
}

export interface ServerAdviceProps {
  server: ServerSummary
  busy: ReadonlySet<string>
  onRemedy: (remedy: Remedy) => void
}

/** The server's last error in plain words, what to do about it, and a button that does it. */
export function ServerAdvice({
  server,
  busy,
  onRemedy,
}: ServerAdviceProps): React.JSX.Element | null {
  const advice = adviceFor(server)
  if (!advice) return null
  const remedy = advice.remedy ? REMEDY[advice.remedy] : null
  const running =
    (advice.remedy === 'reconnect' && busy.has(`reconnect:${server.id}`)) ||
    (advice.remedy === 'enable' && busy.has(`enabled:${server.id}`))
  const icon: IconName =
    advice.tone === 'bad' ? 'error' : advice.tone === 'warn' ? 'warning' : 'info'
  return (
    <div className={cx('server-advice', `server-advice--${advice.tone}`)}>
      <Icon name={icon} className="server-advice__icon" />
      <div className="server-advice__text">
        <span className="server-advice__problem">{advice.problem}</span>{' '}
        <span className="server-advice__next">{advice.next}</span>
      </div>
      {remedy && advice.remedy && (
        <Button
          icon={remedy.icon}
          busy={running}
          onClick={() => onRemedy(advice.remedy!)}
          aria-label={`${remedy.label.replace('…', '')} (${server.id})`}
        >
          {remedy.label}
        </Button>
      )}
    </div>
  )
}
