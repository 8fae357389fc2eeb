import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { secretValueProblem } from '#shared/ipc/secrets'
import { call } from '../../api'
import { useNoticePosted } from '../../state/store'
import { Banner, Button, Dialog, PasswordField } from '../../ui'
import { secretKeys } from './queries'
import type { SecretTarget } from './secret-target'

export interface SecretValueDialogProps {
  target: SecretTarget | null
  onClose: () => void
}

/**
 * Asks for a secret value in a masked field and sends it to main once. The value lives only in
 * this dialog's state (no query cache, no store) and is gone when the dialog closes.
 */
export function SecretValueDialog({
  target,
  onClose,
}: SecretValueDialogProps): React.JSX.Element | null {
  if (!target) return null
  return (
    <ValueForm
      key={`${target.server}/${target.name}/${target.kind}`}
      target={target}
      onClose={onClose}
    />
  )
}

function ValueForm({
  target,
  onClose,
}: {
  target: SecretTarget
  onClose: () => void
}): React.JSX.Element {
  const queryClient = useQueryClient()
  const notify = useNoticePosted()
  const [value, setValue] = useState('')
  const [problem, setProblem] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)
  const session = target.kind === 'session'
  const verb = target.present ? 'Replace' : 'Set'

  const submit = async (): Promise<void> => {
    const invalid = secretValueProblem(value)
    if (invalid) {
      setProblem(invalid)
      return
    }
    setBusy(true)
    try {
      const request = { server: target.server, name: target.name, value }
      if (session) await call('secrets:session-set', request)
      else await call('secrets:set', request)
      setValue('')
      await queryClient.invalidateQueries({ queryKey: secretKeys.all })
      notify({
        tone: 'ok',
        message: session
          ? `Session token ${target.name} for ${target.server} is set until the console quits.`
          : `Stored ${target.name} for ${target.server} in the keychain.`,
      })
      onClose()
    } catch (error) {
      setProblem((error as Error).message)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Dialog
      open
      onClose={onClose}
      size="sm"
      title={`${verb} ${target.name} for ${target.server}`}
      onSubmit={() => void submit()}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy}>
            {session ? 'Set for this session' : `${verb} secret`}
          </Button>
        </>
      }
    >
      {session ? (
        <Banner tone="info" role="none" title="This session only, never saved">
          Kept in memory until the console quits; not written to the keychain or any file.
        </Banner>
      ) : (
        <p className="muted">
          Stored in the OS keychain (service <code>rag-mcp-console</code>, account{' '}
          <code>
            {target.server}/{target.name}
          </code>
          ). {target.present ? 'The current value is replaced. ' : ''}The value is never shown
          again; the server reconnects with it.
        </p>
      )}
      <PasswordField
        label="Value"
        value={value}
        onChange={(event) => {
          setValue(event.target.value)
          setProblem(undefined)
        }}
        error={problem}
        data-autofocus
      />
    </Dialog>
  )
}
