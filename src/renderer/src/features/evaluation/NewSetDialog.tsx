import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { call } from '../../api'
import { Button, Dialog, TextField } from '../../ui'
import { setIdFor } from './grades'
import { evalKeys, evalQueries } from './queries'

export interface NewSetDialogProps {
  open: boolean
  onClose: () => void
  /** The new set's id, once it is saved. */
  onCreated: (id: string) => void
}

/** Names a new, empty golden set and saves it. */
export function NewSetDialog({ open, onClose, onCreated }: NewSetDialogProps): React.JSX.Element {
  const sets = useQuery({ ...evalQueries.sets(), enabled: open })
  const queryClient = useQueryClient()
  const [name, setName] = useState('')
  const [error, setError] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)
  const close = (): void => {
    setName('')
    setError(undefined)
    onClose()
  }
  const create = async (): Promise<void> => {
    const trimmed = name.trim()
    if (!trimmed) return setError('Give the set a name.')
    setBusy(true)
    try {
      const id = setIdFor(trimmed, new Set(sets.data?.map((s) => s.id)))
      await call('eval:set:save', { version: 1, id, name: trimmed, queries: [] })
      await queryClient.invalidateQueries({ queryKey: evalKeys.sets() })
      onCreated(id)
      close()
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Dialog
      open={open}
      onClose={close}
      title="New golden set"
      size="sm"
      onSubmit={() => void create()}
      footer={
        <>
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy}>
            Create set
          </Button>
        </>
      }
    >
      <TextField
        label="Name"
        value={name}
        maxLength={200}
        error={error}
        hint="Queries and judgments are added as you judge hits in Search, or in the set editor."
        onChange={(event) => {
          setName(event.target.value)
          setError(undefined)
        }}
      />
    </Dialog>
  )
}
