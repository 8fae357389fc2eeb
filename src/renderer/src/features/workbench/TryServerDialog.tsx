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
import { commandLine, withHeader, withoutHeader, type HeaderDraft } from './try-server'
import { useTryServer } from './use-try-server'

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
  const dialog = useTryServer(onClose, onTried)
  const { draft, edit, tryIt, close } = dialog
  return (
    <>
      <Dialog
        open={open && !dialog.confirming}
        onClose={close}
        size="md"
        title="Try a server"
        description="Connects for this session only: nothing is written to rag-mcp.json unless you add it to the registry afterwards."
        onSubmit={dialog.submit}
        footer={
          <>
            <Button onClick={close}>Cancel</Button>
            <Button variant="primary" type="submit" busy={tryIt.isPending} disabled={!dialog.ready}>
              Connect
            </Button>
          </>
        }
      >
        <div className="wb-form__fields">
          <Select
            label="Transport"
            value={draft.transport}
            options={TRANSPORTS}
            onChange={(transport) => edit({ transport })}
          />
          {draft.transport === 'stdio' ? (
            <>
              <TextField
                label="Command"
                mono
                value={draft.command}
                onChange={(e) => edit({ command: e.target.value })}
              />
              <Field label="Arguments, one per line">
                {(control) => (
                  <textarea
                    className="ui-input ui-input--mono wb-form__textarea"
                    rows={3}
                    value={draft.args}
                    onChange={(e) => edit({ args: e.target.value })}
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
                value={draft.url}
                onChange={(e) => edit({ url: e.target.value })}
              />
              <HeaderFields headers={draft.headers} onChange={(headers) => edit({ headers })} />
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
        open={dialog.confirming}
        title="Run this command?"
        confirmLabel="Run and connect"
        busy={tryIt.isPending}
        onConfirm={() => tryIt.mutate()}
        onCancel={dialog.cancelConfirm}
      >
        <p>Trying a stdio server starts a program on this computer, with your rights:</p>
        <pre className="wb-copy__text">{commandLine(draft)}</pre>
        <p>Only run commands you trust.</p>
      </ConfirmDialog>
    </>
  )
}

/** The headers sent with a tried HTTP or SSE server: names shown, values typed as secrets. */
function HeaderFields({
  headers,
  onChange,
}: {
  headers: readonly HeaderDraft[]
  onChange: (headers: HeaderDraft[]) => void
}) {
  return (
    <fieldset className="wb-form__group">
      <legend>Headers</legend>
      {headers.map((header, index) => (
        <div className="wb-form__item" key={index}>
          <TextField
            label={`Header ${index + 1} name`}
            mono
            value={header.name}
            onChange={(e) => onChange(withHeader(headers, index, { name: e.target.value }))}
          />
          <PasswordField
            label={`Header ${index + 1} value`}
            value={header.value}
            onChange={(e) => onChange(withHeader(headers, index, { value: e.target.value }))}
          />
          <IconButton
            icon="trash"
            label={`Remove header ${index + 1}`}
            onClick={() => onChange(withoutHeader(headers, index))}
          />
        </div>
      ))}
      <Button
        variant="ghost"
        icon="plus"
        onClick={() => onChange([...headers, { name: '', value: '' }])}
      >
        Add header
      </Button>
      <p className="muted">Values are kept in memory only and never shown again.</p>
    </fieldset>
  )
}
