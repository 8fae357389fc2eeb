import type { ServerSummary } from '#shared/model/server'
import { Banner, Button, type IconName } from '../../ui'
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
  const what = advice.remedy
  const remedy = what ? REMEDY[what] : null
  const running =
    (what === 'reconnect' && busy.has(`reconnect:${server.id}`)) ||
    (what === 'enable' && busy.has(`enabled:${server.id}`))
  return (
    // The status badge already says what changed; the advice is read in place, not announced.
    <Banner
      tone={advice.tone}
      role="none"
      className="server-advice"
      actions={
        remedy &&
        what && (
          <Button
            icon={remedy.icon}
            busy={running}
            onClick={() => onRemedy(what)}
            aria-label={`${remedy.label.replace('…', '')} (${server.id})`}
          >
            {remedy.label}
          </Button>
        )
      }
    >
      <span className="server-advice__problem">{advice.problem}</span>{' '}
      <span className="muted">{advice.next}</span>
    </Banner>
  )
}
