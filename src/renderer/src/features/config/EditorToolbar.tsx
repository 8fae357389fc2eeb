import { shortenPath, plural } from '../../lib/format'
import { ariaShortcut, Badge, Button, Kbd, Spinner } from '../../ui'

export interface EditorToolbarProps {
  path: string
  dirty: boolean
  /** The text is not a file on disk yet (embedded default, or a deleted file). */
  notOnDisk: boolean
  errors: number
  warnings: number
  checking: boolean
  /** Saving makes sense: edits, or an embedded default that is not a file yet. */
  canSave: boolean
  reloading: boolean
  onSave: () => void
  onRevert: () => void
  onReload: () => void
}

/** The file, its state, and Save / Revert / Reload now. */
export function EditorToolbar({
  path,
  dirty,
  notOnDisk,
  errors,
  warnings,
  checking,
  canSave,
  reloading,
  onSave,
  onRevert,
  onReload,
}: EditorToolbarProps): React.JSX.Element {
  return (
    <div className="config-toolbar" role="toolbar" aria-label="Config file">
      <code className="config-toolbar__path" title={path}>
        {shortenPath(path, 80)}
      </code>
      {dirty ? (
        <Badge tone="warn">unsaved changes</Badge>
      ) : notOnDisk ? (
        <Badge tone="info">not saved yet</Badge>
      ) : (
        <Badge>saved</Badge>
      )}
      {checking ? (
        <Spinner size={12} />
      ) : errors > 0 ? (
        <Badge tone="bad" dot>
          {plural(errors, 'error')}
        </Badge>
      ) : (
        <Badge tone="ok" dot>
          valid{warnings ? `, ${plural(warnings, 'warning')}` : ''}
        </Badge>
      )}
      <span className="config-toolbar__spacer" />
      <Button
        icon="refresh"
        busy={reloading}
        onClick={onReload}
        title="Read the files on disk again now"
      >
        Reload now
      </Button>
      <Button onClick={onRevert} disabled={!dirty} title="Drop the edits (Ctrl+Z brings them back)">
        Revert
      </Button>
      <Button
        variant="primary"
        icon="save"
        onClick={onSave}
        disabled={!canSave}
        aria-keyshortcuts={ariaShortcut('Mod+S')}
      >
        Save… <Kbd shortcut="Mod+S" className="config-toolbar__kbd" />
      </Button>
    </div>
  )
}
