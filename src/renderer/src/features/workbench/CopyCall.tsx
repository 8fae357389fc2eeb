import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { call } from '../../api'
import { useNoticePosted } from '../../state/store'
import { Banner, Button, CopyButton, Dialog, TextField } from '../../ui'
import { workbenchKeys } from './queries'

export interface CopyCallProps {
  server: string
  tool: string
  /** The arguments as entered, or null when they have problems (shown by the caller). */
  current: () => Record<string, unknown> | null
}

/** "Copy as command" (CLI and, for HTTP servers, cURL) and "Save request" for a call. */
export function CopyCall({ server, tool, current }: CopyCallProps) {
  const queryClient = useQueryClient()
  const notify = useNoticePosted()
  const [saving, setSaving] = useState<Record<string, unknown> | null>(null)
  const [name, setName] = useState('')
  const copy = useMutation({
    mutationFn: (args: Record<string, unknown>) =>
      call('workbench:copy', { server, tool, arguments: args }),
  })
  const save = useMutation({
    mutationFn: (args: Record<string, unknown>) =>
      call('workbench:saved-save', { server, tool, arguments: args, name: name.trim() }),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: workbenchKeys.saved(server) })
      notify({ tone: 'ok', message: `Saved "${saved.name}" for ${server}.` })
      setSaving(null)
    },
  })
  const withArgs = (then: (args: Record<string, unknown>) => void) => () => {
    const args = current()
    if (args) then(args)
  }
  return (
    <>
      <Button icon="copy" busy={copy.isPending} onClick={withArgs((args) => copy.mutate(args))}>
        Copy as command
      </Button>
      <Button
        icon="save"
        onClick={withArgs((args) => {
          setName(tool)
          save.reset()
          setSaving(args)
        })}
      >
        Save request
      </Button>
      {copy.isError && (
        <Banner tone="bad" title="Could not build the command">
          {copy.error.message}
        </Banner>
      )}
      {copy.isSuccess && (
        <div className="wb-copy" role="region" aria-label="Call as command">
          <CommandLine label="rag-console" text={copy.data.cli} />
          {copy.data.curl ? (
            <CommandLine label="cURL" text={copy.data.curl} />
          ) : (
            <p className="muted">No cURL command: {server} is not a streamable HTTP server.</p>
          )}
          <p className="muted">Secrets appear as shell variables; set them before running.</p>
        </div>
      )}
      <Dialog
        open={saving !== null}
        onClose={() => setSaving(null)}
        size="sm"
        title="Save request"
        description={`Kept in the app's data folder for ${server}, without secret values.`}
        onSubmit={() => saving && name.trim() && save.mutate(saving)}
        footer={
          <>
            <Button onClick={() => setSaving(null)}>Cancel</Button>
            <Button variant="primary" type="submit" busy={save.isPending} disabled={!name.trim()}>
              Save
            </Button>
          </>
        }
      >
        <TextField label="Name" value={name} onChange={(event) => setName(event.target.value)} />
        {save.isError && (
          <Banner tone="bad" title="Could not save">
            {save.error.message}
          </Banner>
        )}
      </Dialog>
    </>
  )
}

function CommandLine({ label, text }: { label: string; text: string }) {
  return (
    <div className="wb-copy__line">
      <span className="wb-copy__label">{label}</span>
      <pre className="wb-copy__text" aria-label={`${label} command`}>
        {text}
      </pre>
      <CopyButton text={text} label={`Copy the ${label} command`} />
    </div>
  )
}
