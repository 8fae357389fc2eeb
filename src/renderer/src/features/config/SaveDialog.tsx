import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { DraftValidation, RawConfig, SaveResult } from '#shared/ipc/registry'
import { listNames, plural } from '../../lib/format'
import { Banner, Button, Dialog, Spinner } from '../../ui'
import type { SecretTarget } from '../secrets/secret-target'
import { SecretValueDialog } from '../secrets/SecretValueDialog'
import { DiagnosticList } from './DiagnosticList'
import { configKeys } from './queries'
import { ServerDiff } from './ServerDiff'
import { TextDiff } from './TextDiff'
import { useSavePreview } from './use-save-preview'

export interface SaveDialogProps {
  /** The text to save (the draft when Save was pressed). */
  text: string | null
  /** The version the draft started from. */
  base: RawConfig
  /** A newer version on disk the draft has not taken in: the diff is against it. */
  disk: RawConfig | null
  onSave: (text: string) => Promise<SaveResult>
  onClose: () => void
  /** The save came back with a conflict or diagnostics: the editor takes over. */
  onOutcome: (result: SaveResult) => void
}

/**
 * The preview before a save is applied: what it does to each server (from main's validation),
 * the line diff against the text it replaces (the file on disk, or the embedded registry the
 * first save replaces), and whether it can be saved at all.
 */
export function SaveDialog(props: SaveDialogProps): React.JSX.Element | null {
  return props.text === null ? null : <SavePreview {...props} text={props.text} />
}

function SavePreview({
  text,
  base,
  disk,
  onSave,
  onClose,
  onOutcome,
}: SaveDialogProps & { text: string }): React.JSX.Element {
  const { validation, errors, warnings, saveButton, saving, failure, confirm } = useSavePreview(
    text,
    onSave,
    onOutcome,
  )
  const data = validation.data

  return (
    <Dialog
      open
      onClose={onClose}
      title="Save rag-mcp.json?"
      size="lg"
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            ref={saveButton}
            variant="primary"
            icon="save"
            busy={saving}
            disabled={!data?.valid}
            onClick={() => void confirm()}
          >
            Save and apply
          </Button>
        </>
      }
    >
      <p>
        {base.exists ? 'Writes' : 'Creates'} <code className="save-dialog__path">{base.path}</code>{' '}
        atomically{base.exists ? '; the previous version is kept as .bak' : ''}, then applies it.
        {base.fromEmbedded &&
          ' It holds the whole demo registry with this change and is the registry from then on.'}
      </p>
      {validation.isPending && <Spinner label="Checking what the save would change…" />}
      {validation.isError && (
        <Banner tone="bad" title="Could not check the draft">
          {validation.error.message}
        </Banner>
      )}
      {data && !data.valid && (
        <Banner tone="bad" title={`Cannot save: ${plural(errors.length, 'error')}`}>
          <DiagnosticList diagnostics={errors} max={8} />
        </Banner>
      )}
      {data?.diff && (
        <section aria-label="Server changes">
          <h3 className="save-dialog__heading">What the save changes</h3>
          <ServerDiff diff={data.diff} />
        </section>
      )}
      {data?.missingSecrets && data.missingSecrets.length > 0 && (
        <MissingSecrets missing={data.missingSecrets} text={text} />
      )}
      {warnings.length > 0 && (
        <Banner tone="warn" role="none" title={plural(warnings.length, 'warning')}>
          <DiagnosticList diagnostics={warnings} max={5} />
        </Banner>
      )}
      {disk && (
        <Banner tone="warn" role="none" title="rag-mcp.json changed on disk since you opened it">
          The text changes below are against the version on disk now; saving asks which version to
          keep.
        </Banner>
      )}
      <section aria-label="Line changes">
        <h3 className="save-dialog__heading">Text changes</h3>
        <TextDiff before={(disk ?? base).text} after={text} label="Line diff of the save" />
      </section>
      {failure && (
        <Banner tone="bad" title="The save failed">
          {failure}
        </Banner>
      )}
    </Dialog>
  )
}

/**
 * Keychain references the save brings in that have no value yet: the server would wait in
 * "action required" after the save. Each can be set now (it may be stored before the server
 * exists); the check runs again once the dialog closes.
 */
function MissingSecrets({
  missing,
  text,
}: {
  missing: NonNullable<DraftValidation['missingSecrets']>
  text: string
}): React.JSX.Element {
  const queryClient = useQueryClient()
  const [setting, setSetting] = useState<SecretTarget | null>(null)
  const servers = [...new Set(missing.map((m) => m.server))]
  return (
    <Banner
      tone="warn"
      role="none"
      title={`${plural(missing.length, 'keychain secret')} without a value yet`}
    >
      <p>
        After the save, {listNames(servers)} {servers.length === 1 ? 'waits' : 'wait'} in “action
        required” until {missing.length === 1 ? 'it is' : 'they are'} set. Set{' '}
        {missing.length === 1 ? 'it' : 'them'} now, or later in Config → Secrets.
      </p>
      <ul className="save-dialog__secrets" aria-label="Keychain secrets without a value">
        {missing.map(({ server, name }) => (
          <li key={`${server}/${name}`}>
            <code>{`\${keychain:${name}}`}</code> of <code>{server}</code>{' '}
            <Button
              icon="key"
              onClick={() => setSetting({ server, name, kind: 'keychain', present: false })}
            >
              Set {name}…
            </Button>
          </li>
        ))}
      </ul>
      <SecretValueDialog
        target={setting}
        onClose={() => {
          setSetting(null)
          void queryClient.invalidateQueries({ queryKey: configKeys.validate(text) })
        }}
      />
    </Banner>
  )
}
