import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { TryServer } from '#shared/ipc/workbench'
import { call } from '../../api'
import { useNoticePosted, useWorkbenchServerSelected } from '../../state/store'
import { Banner, Button, Dialog, TextField } from '../../ui'
import { configQueries } from '../config/queries'
import { OAuthRow } from '../servers/OAuthRow'
import { useServerActions } from '../servers/use-server-actions'
import { workbenchKeys, workbenchQueries } from './queries'

/**
 * A server being tried: what it is, its OAuth sign-in (tokens in memory: it is not saved),
 * "Add to registry" and "Close".
 */
export function TriedServer({ tried }: { tried: TryServer }) {
  const queryClient = useQueryClient()
  const actions = useServerActions()
  const oauth = useQuery({
    ...workbenchQueries.auth(tried.server),
    enabled: tried.transport !== 'stdio',
  })
  const notify = useNoticePosted()
  const select = useWorkbenchServerSelected()
  const [adding, setAdding] = useState(false)
  const [id, setId] = useState('')
  const forget = (): void => {
    queryClient.setQueryData<TryServer[]>(workbenchKeys.tried(), (old) =>
      (old ?? []).filter((t) => t.server !== tried.server),
    )
  }
  const close = useMutation({
    mutationFn: () => call('workbench:try-close', { server: tried.server }),
    onSuccess: forget,
  })
  const add = useMutation({
    mutationFn: async () => {
      const { hash } = await queryClient.fetchQuery({ ...configQueries.raw(), staleTime: 0 })
      return call('workbench:try-add', { server: tried.server, id: id.trim(), baseHash: hash })
    },
    onSuccess: async ({ id: added, movedSecrets }) => {
      const moved = movedSecrets.map((m) => m.name)
      notify({
        tone: 'ok',
        message: `Added ${added} to rag-mcp.json.`,
        ...(moved.length
          ? { detail: `Kept in the keychain, not in the file: ${moved.join(', ')}.` }
          : {}),
      })
      setAdding(false)
      await close.mutateAsync()
      select(added)
    },
  })
  const target = tried.url ?? [tried.command, ...(tried.args ?? [])].join(' ')
  return (
    <Banner
      tone="info"
      title={`${tried.server} is being tried (${tried.transport}), not saved`}
      actions={
        <>
          <Button onClick={() => (setId(''), add.reset(), setAdding(true))}>
            Add to registry…
          </Button>
          <Button busy={close.isPending} onClick={() => close.mutate()}>
            Close {tried.server}
          </Button>
        </>
      }
    >
      <code>{target}</code>
      {tried.headerNames.length > 0 && (
        <span className="muted"> · headers: {tried.headerNames.join(', ')}</span>
      )}
      <OAuthRow server={tried.server} oauth={oauth.data} actions={actions} kept="memory" />
      <Dialog
        open={adding}
        onClose={() => setAdding(false)}
        size="sm"
        title={`Add ${tried.server} to the registry`}
        description="Written to rag-mcp.json; header values that look like secrets go to the keychain instead."
        onSubmit={() => id.trim() && add.mutate()}
        footer={
          <>
            <Button onClick={() => setAdding(false)}>Cancel</Button>
            <Button variant="primary" type="submit" busy={add.isPending} disabled={!id.trim()}>
              Add
            </Button>
          </>
        }
      >
        <TextField label="Server id" mono value={id} onChange={(e) => setId(e.target.value)} />
        {add.isError && (
          <Banner tone="bad" title="Could not add the server">
            {add.error.message}
          </Banner>
        )}
      </Dialog>
    </Banner>
  )
}
