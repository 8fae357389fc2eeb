import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { call } from '../../api'
import { useNoticePosted } from '../../state/store'
import { ConfirmDialog } from '../../ui'
import { secretKeys } from './queries'
import type { SecretTarget } from './secret-target'

export interface DeleteSecretDialogProps {
  target: SecretTarget | null
  onClose: () => void
}

/** Confirms deleting a keychain entry (or clearing a session token) and does it. */
export function DeleteSecretDialog({
  target,
  onClose,
}: DeleteSecretDialogProps): React.JSX.Element {
  const queryClient = useQueryClient()
  const notify = useNoticePosted()
  const [busy, setBusy] = useState(false)
  const session = target?.kind === 'session'

  const confirm = async (): Promise<void> => {
    if (!target) return
    setBusy(true)
    try {
      if (session) await call('secrets:session-clear', { server: target.server, name: target.name })
      else await call('secrets:delete', { server: target.server, name: target.name })
      await queryClient.invalidateQueries({ queryKey: secretKeys.all })
      notify({
        tone: 'ok',
        message: session
          ? `Cleared session token ${target.name} for ${target.server}.`
          : `Deleted ${target.name} for ${target.server} from the keychain.`,
      })
      onClose()
    } catch (error) {
      notify({
        tone: 'bad',
        message: `Could not delete ${target.name}: ${(error as Error).message}`,
      })
    } finally {
      setBusy(false)
    }
  }

  return (
    <ConfirmDialog
      open={target !== null}
      title={
        target
          ? session
            ? `Clear session token ${target.name}?`
            : `Delete ${target.name} for ${target.server}?`
          : ''
      }
      confirmLabel={session ? 'Clear token' : 'Delete secret'}
      destructive
      busy={busy}
      onConfirm={() => void confirm()}
      onCancel={onClose}
    >
      <p>
        {session
          ? 'The server falls back to whatever else its config provides.'
          : `The value is removed from the OS keychain. ${target?.server ?? 'The server'} needs a new value before it can connect with this credential again.`}
      </p>
    </ConfirmDialog>
  )
}
