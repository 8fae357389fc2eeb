import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { WorkbenchCall } from '#shared/ipc/workbench'
import { call } from '../../api'
import { formatTime } from '../../lib/format'
import { Badge, Button, IconButton } from '../../ui'
import { workbenchKeys, workbenchQueries } from './queries'

const OUTCOME_TONE = { ok: 'ok', tool_error: 'warn', error: 'bad' } as const

/** Saved requests and the recent calls of a server; either loads into the form. */
export function Requests({
  server,
  onLoad,
}: {
  server: string
  /** `run`: call it at once (a replay), else only fill the form. */
  onLoad: (call: WorkbenchCall, run: boolean) => void
}) {
  const queryClient = useQueryClient()
  const saved = useQuery(workbenchQueries.saved(server))
  const history = useQuery(workbenchQueries.history(server))
  const remove = useMutation({
    mutationFn: (id: string) => call('workbench:saved-delete', { id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: workbenchKeys.saved(server) }),
  })
  // Newest first, as the core keeps them.
  const calls = history.data ?? []
  return (
    <aside className="wb-requests" aria-label="Requests">
      <h3>Saved requests</h3>
      {saved.data?.length ? (
        <ul className="wb-requests__list" aria-label="Saved requests">
          {saved.data.map((request) => (
            <li key={request.id} className="wb-requests__item">
              <span className="wb-requests__name" title={request.tool}>
                {request.name}
              </span>
              <Button
                variant="ghost"
                onClick={() => onLoad(request, false)}
                aria-label={`Load ${request.name}`}
              >
                Load
              </Button>
              <IconButton
                icon="trash"
                tone="danger"
                label={`Delete ${request.name}`}
                onClick={() => remove.mutate(request.id)}
              />
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">None yet: “Save request” keeps a call here.</p>
      )}
      <h3>History</h3>
      {calls.length ? (
        <ul className="wb-requests__list" aria-label="History">
          {calls.map((entry) => (
            <li key={entry.callId} className="wb-requests__item">
              <span className="wb-requests__name">
                {entry.tool} <span className="muted">{formatTime(entry.at)}</span>
              </span>
              <Badge tone={OUTCOME_TONE[entry.outcome]}>
                {entry.errorCode ?? entry.outcome.replace('_', ' ')}
              </Badge>
              <Button
                variant="ghost"
                onClick={() => onLoad(entry, true)}
                aria-label={`Replay ${entry.tool} of ${formatTime(entry.at)}`}
              >
                Replay
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No calls yet.</p>
      )}
    </aside>
  )
}
