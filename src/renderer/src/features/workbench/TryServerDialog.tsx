import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { TryServer, TrySpec } from '#shared/ipc/workbench'
import { call } from '../../api'
import {
  Banner,
  Button,
  ConfirmDialog,
  Dialog,
  Field,
  IconButton,
  PasswordField,
  Select,
  TextField,
} from '../../ui'
import { workbenchKeys } from './queries'

type Transport = TrySpec['transport']
const TRANSPORTS = [
  { value: 'http', label: 'Streamable HTTP' },
  { value: 'sse', label: 'SSE' },
  { value: 'stdio', label: 'stdio (runs a command)' },
] as const

export interface TryServerDialogProps {
  open: boolean
  onClose: () => void
  /** The id the tried server got (`try-1`, …). */
  onTried: (server: string) => void
}

/** Connects a server given by hand for this session; nothing is written anywhere. */
export function TryServerDialog({ open, onClose, onTried }: TryServerDialogProps) {
  const queryClient = useQueryClient()
  const [transport, setTransport] = useState<Transport>('http')
  const [url, setUrl] = useState('')
  const [command, setCommand] = useState('')
  const [args, setArgs] = useState('')
  const [headers, setHeaders] = useState<{ name: string; value: string }[]>([])
  const [confirming, setConfirming] = useState(false)
  const spec = (): TrySpec =>
    transport === 'stdio'
      ? {
          transport,
          command: command.trim(),
          args: args.split('\n').filter((line) => line.trim() !== ''),
        }
      : {
          transport,
          url: url.trim(),
          headers: Object.fromEntries(
            headers.filter((h) => h.name.trim()).map((h) => [h.name.trim(), h.value]),
          ),
        }
  const tryIt = useMutation({
    mutationFn: () => call('workbench:try', spec()),
    onSuccess: (tried) => {
      queryClient.setQueryData<TryServer[]>(workbenchKeys.tried(), (old) => [...(old ?? []), tried])
      // Header values stay in the main process only.
      setHeaders([])
      setConfirming(false)
      onTried(tried.server)
      onClose()
    },
    onError: () => setConfirming(false),
  })
  // Header values live here only until they are sent or the dialog is closed.
  const close = (): void => {
    setHeaders([])
    onClose()
  }
  const ready = transport === 'stdio' ? command.trim() !== '' : url.trim() !== ''
  const submit = (): void => {
    if (!ready) return
    if (transport === 'stdio') setConfirming(true)
    else tryIt.mutate()
  }
  return (
    <>
      <Dialog
        open={open && !confirming}
        onClose={close}
        size="md"
        title="Try a server"
        description="Connects for this session only: nothing is written to rag-mcp.json unless you add it to the registry afterwards."
        onSubmit={submit}
        footer={
          <>
            <Button onClick={close}>Cancel</Button>
            <Button variant="primary" type="submit" busy={tryIt.isPending} disabled={!ready}>
              Connect
            </Button>
          </>
        }
      >
        <div className="wb-form__fields">
          <Select
            label="Transport"
            value={transport}
            options={TRANSPORTS}
            onChange={setTransport}
          />
          {transport === 'stdio' ? (
            <>
              <TextField
                label="Command"
                mono
                value={command}
                onChange={(e) => setCommand(e.target.value)}
              />
              <Field label="Arguments, one per line">
                {(control) => (
                  <textarea
                    className="ui-input ui-input--mono wb-form__textarea"
                    rows={3}
                    value={args}
                    onChange={(e) => setArgs(e.target.value)}
                    {...control}
                  />
                )}
              </Field>
            </>
          ) : (
            <>
              <TextField
                label="URL"
                mono
                placeholder="https://rag.example.com/mcp"
                value={url}
                onChange={(e) => setUrl(e.target.value)}
              />
              <fieldset className="wb-form__group">
                <legend>Headers</legend>
                {headers.map((header, index) => (
                  <div className="wb-form__item" key={index}>
                    <TextField
                      label={`Header ${index + 1} name`}
                      mono
                      value={header.name}
                      onChange={(e) =>
                        setHeaders(
                          headers.map((h, i) => (i === index ? { ...h, name: e.target.value } : h)),
                        )
                      }
                    />
                    <PasswordField
                      label={`Header ${index + 1} value`}
                      value={header.value}
                      onChange={(e) =>
                        setHeaders(
                          headers.map((h, i) =>
                            i === index ? { ...h, value: e.target.value } : h,
                          ),
                        )
                      }
                    />
                    <IconButton
                      icon="trash"
                      label={`Remove header ${index + 1}`}
                      onClick={() => setHeaders(headers.filter((_, i) => i !== index))}
                    />
                  </div>
                ))}
                <Button
                  variant="ghost"
                  icon="plus"
                  onClick={() => setHeaders([...headers, { name: '', value: '' }])}
                >
                  Add header
                </Button>
                <p className="muted">Values are kept in memory only and never shown again.</p>
              </fieldset>
            </>
          )}
          {tryIt.isError && (
            <Banner tone="bad" title="Could not try the server">
              {tryIt.error.message}
            </Banner>
          )}
        </div>
      </Dialog>
      <ConfirmDialog
        open={confirming}
        title="Run this command?"
        confirmLabel="Run and connect"
        busy={tryIt.isPending}
        onConfirm={() => tryIt.mutate()}
        onCancel={() => setConfirming(false)}
      >
        <p>Trying a stdio server starts a program on this computer, with your rights:</p>
        <pre className="wb-copy__text">
          {[command.trim(), ...args.split('\n').filter((l) => l.trim())].join(' ')}
        </pre>
        <p>Only run commands you trust.</p>
      </ConfirmDialog>
    </>
  )
}
