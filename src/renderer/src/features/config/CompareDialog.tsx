import { useState } from 'react'
import { Banner, Button, Dialog } from '../../ui'
import { SideBySideDiff } from './TextDiff'

export interface Comparison {
  /** `conflict`: a save was refused because the file changed; `external`: seen while editing. */
  kind: 'conflict' | 'external'
  path: string
  disk: string
  diskHash: string
  diskExists: boolean
  mine: string
  /** A version that raced the save and could not be put back, kept at this path (`.bak.N`). */
  keptAt?: string | undefined
}

export interface CompareDialogProps {
  comparison: Comparison | null
  /** Keep the editor's version (for a conflict: save it over the disk's). */
  onKeepMine: () => Promise<void>
  /** Load the disk's version into the editor, dropping the edits. */
  onTakeDisk: () => void
  onClose: () => void
}

/** The file on disk and the editor's version side by side, and the choice between them. */
export function CompareDialog({
  comparison,
  onKeepMine,
  onTakeDisk,
  onClose,
}: CompareDialogProps): React.JSX.Element {
  const [busy, setBusy] = useState(false)
  // Why keeping mine failed, for the comparison it failed on (a later one starts clean).
  const [failure, setFailure] = useState<{ of: Comparison; message: string } | null>(null)
  const conflict = comparison?.kind === 'conflict'
  const keepMine = async (): Promise<void> => {
    if (!comparison) return
    setBusy(true)
    setFailure(null)
    try {
      await onKeepMine()
    } catch (error) {
      setFailure({ of: comparison, message: (error as Error).message })
    } finally {
      setBusy(false)
    }
  }
  return (
    <Dialog
      open={comparison !== null}
      onClose={onClose}
      size="xl"
      title={conflict ? 'rag-mcp.json changed on disk' : 'Compare with the file on disk'}
      description={
        conflict
          ? 'Someone (or another editor) changed the file after you opened it, so nothing was saved. Choose which version to keep.'
          : 'The file changed on disk while you were editing. Your edits are kept until you choose.'
      }
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" onClick={onTakeDisk}>
            Take the disk's version
          </Button>
          <Button variant="primary" busy={busy} data-autofocus onClick={() => void keepMine()}>
            {conflict ? 'Keep mine and save' : 'Keep mine'}
          </Button>
        </>
      }
    >
      {comparison?.keptAt && (
        <Banner tone="warn" role="none" title="Another version was kept aside">
          The file changed more than once while it was being saved, so nothing was saved: one of
          those versions could not be put back and is kept at{' '}
          <code className="save-dialog__path">{comparison.keptAt}</code>. Compare it with the two
          below before you delete it.
        </Banner>
      )}
      {comparison && (
        <SideBySideDiff
          left={comparison.disk}
          right={comparison.mine}
          leftTitle={
            comparison.diskExists ? `On disk: ${comparison.path}` : 'On disk: (file deleted)'
          }
          rightTitle="Your version"
        />
      )}
      {failure?.of === comparison && (
        <Banner tone="bad" title="The save failed">
          {failure.message}
        </Banner>
      )}
    </Dialog>
  )
}
