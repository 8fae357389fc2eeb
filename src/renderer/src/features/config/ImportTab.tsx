import { useId, useRef } from 'react'
import { Badge, Banner, Button, Spinner, TextField } from '../../ui'
import { ImportPreview } from './ImportPreview'
import { useImportTab } from './use-import-tab'

/** Import servers from Claude Desktop, Cursor or VS Code files, with a preview first. */
export function ImportTab(): React.JSX.Element {
  const tab = useImportTab()
  const { source, preview, previewed } = tab
  const groupName = useId()

  return (
    <div className="import">
      {tab.dirty && (
        <Banner tone="warn" title="The editor has unsaved changes">
          Importing writes rag-mcp.json on disk; the editor will then offer to compare your edits
          with the new file.
        </Banner>
      )}
      <section className="import__choose" aria-labelledby={`${groupName}-title`}>
        <h2 id={`${groupName}-title`}>Import from another MCP client</h2>
        <p className="muted">
          Servers from Claude Desktop, Cursor or VS Code files are converted (type → transport,
          inputs → keychain secrets) and merged into rag-mcp.json. Nothing is written before you
          apply.
        </p>
        <ImportOptions tab={tab} groupName={groupName} />
        <div>
          <Button
            variant="primary"
            icon="import"
            disabled={!source}
            busy={preview.isPending}
            onClick={() => source && preview.mutate(source)}
          >
            Preview import
          </Button>
        </div>
        {preview.isError && (
          <Banner tone="bad" title="Cannot preview this file">
            {preview.error.message}
          </Banner>
        )}
      </section>
      {previewed && (
        <ImportPreview
          key={previewed.preview.target.hash + previewed.preview.from}
          source={previewed.source}
          preview={previewed.preview}
          onPreviewAgain={() => preview.mutate(previewed.source)}
        />
      )}
    </div>
  )
}

/** The files to import from: the known ones found on this machine, another path, an upload. */
function ImportOptions({
  tab,
  groupName,
}: {
  tab: ReturnType<typeof useImportTab>
  groupName: string
}): React.JSX.Element {
  const { candidates, choice, pick, upload } = tab
  const fileInput = useRef<HTMLInputElement>(null)
  return (
    <div role="radiogroup" aria-label="File to import" className="import__options">
      {candidates.isPending && <Spinner label="Looking for known config files…" />}
      {candidates.isError && (
        <Banner tone="bad">Cannot list known config files: {candidates.error.message}</Banner>
      )}
      {candidates.data?.map((candidate) => (
        <label key={candidate.path} className="import__option">
          <input
            type="radio"
            name={groupName}
            value={candidate.path}
            checked={choice === candidate.path}
            disabled={!candidate.exists}
            onChange={() => pick(candidate.path)}
          />
          <span className="import__option-label">{candidate.label}</span>
          <code className="import__option-path" title={candidate.path}>
            {candidate.path}
          </code>
          {candidate.exists ? <Badge tone="ok">found</Badge> : <Badge>not found</Badge>}
        </label>
      ))}
      <label className="import__option">
        <input
          type="radio"
          name={groupName}
          value="other"
          checked={choice === 'other'}
          onChange={() => pick('other')}
        />
        <span className="import__option-label">Another file</span>
      </label>
      {choice === 'other' && (
        <TextField
          label="Path of the file"
          mono
          value={tab.otherPath}
          onChange={(event) => tab.setOtherPath(event.target.value)}
          placeholder="/path/to/claude_desktop_config.json"
          fieldClassName="import__path"
        />
      )}
      <label className="import__option">
        <input
          type="radio"
          name={groupName}
          value="upload"
          checked={choice === 'upload'}
          onChange={() => pick('upload')}
        />
        <span className="import__option-label">Upload a file</span>
        {upload && <code className="import__option-path">{upload.name}</code>}
      </label>
      <input
        ref={fileInput}
        type="file"
        accept=".json,.jsonc,application/json"
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => tab.fileChosen(event.target.files?.[0])}
      />
      {choice === 'upload' && (
        <Button className="import__browse" onClick={() => fileInput.current?.click()}>
          Choose file…
        </Button>
      )}
      {tab.uploadError && <Banner tone="bad">{tab.uploadError}</Banner>}
    </div>
  )
}
