import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import type { PoolLogStream } from '#shared/ipc/servers'
import { formatTime } from '../../lib/format'
import { Badge, Banner, Button, Dialog, Spinner, type Tone } from '../../ui'
import { serverQueries } from './queries'

const STREAM: Record<PoolLogStream, { label: string; tone: Tone }> = {
  stderr: { label: 'stderr', tone: 'warn' },
  stdout: { label: 'stdout', tone: 'neutral' },
  launch: { label: 'launch', tone: 'neutral' },
  pool: { label: 'console', tone: 'info' },
}

export interface LogDialogProps {
  server: string | null
  onClose: () => void
}

/**
 * The last lines a server's process wrote (stderr, stray stdout, launch output) and what the
 * console noted about it, newest at the bottom; refreshed every 2 s while open.
 */
export function LogDialog({ server, onClose }: LogDialogProps): React.JSX.Element | null {
  if (!server) return null
  return <LogBody key={server} server={server} onClose={onClose} />
}

function LogBody({ server, onClose }: { server: string; onClose: () => void }) {
  const log = useQuery({ ...serverQueries.log(server), refetchInterval: 2000 })
  const end = useRef<HTMLLIElement>(null)
  const count = log.data?.length ?? 0
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'nearest' })
  }, [count])
  return (
    <Dialog
      open
      onClose={onClose}
      size="xl"
      title={`Log of ${server}`}
      description="The process's stderr and the console's notes about it; secrets are redacted."
      footer={
        <Button variant="primary" onClick={onClose}>
          Close
        </Button>
      }
    >
      {log.isPending ? (
        <Spinner label="Loading the log…" />
      ) : log.isError ? (
        <Banner tone="bad" title={`Could not read the log of ${server}`}>
          {log.error.message}
        </Banner>
      ) : log.data.length === 0 ? (
        <p className="muted">Nothing logged yet.</p>
      ) : (
        <ol className="server-log" aria-label={`Log lines of ${server}`}>
          {log.data.map((line, index) => (
            <li
              key={index}
              ref={index === log.data.length - 1 ? end : undefined}
              className="server-log__line"
            >
              <span className="server-log__time">{formatTime(line.at)}</span>
              <Badge tone={STREAM[line.stream].tone}>{STREAM[line.stream].label}</Badge>
              <span className="server-log__text">{line.text}</span>
            </li>
          ))}
        </ol>
      )}
    </Dialog>
  )
}
