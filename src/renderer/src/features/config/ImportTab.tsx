import { useMutation, useQuery } from '@tanstack/react-query'
import { useId, useRef, useState } from 'react'
import type { ImportSource, ImportPreview as Preview } from '#shared/ipc/registry'
import { call } from '../../api'
import { readChosenFile } from '../../lib/read-file'
import { useConfigDirty } from '../../state/store'
import { Badge, Banner, Button, Spinner, TextField } from '../../ui'
import { ImportPreview } from './ImportPreview'
import { configQueries } from './queries'

/** Import servers from Claude Desktop, Cursor or VS Code files, with a preview first. */
export function ImportTab(): React.JSX.Element {
  const candidates = useQuery(configQueries.importCandidates())
  const dirty = useConfigDirty()
  const [choice, setChoice] = useState<string>('')
  const [otherPath, setOtherPath] = useState('')
  const [upload, setUpload] = useState<{ name: string; text: string } | null>(null)
  const [uploadError, setUploadError] = useState<string | null>(null)
  const [previewed, setPreviewed] = useState<{ source: ImportSource; preview: Preview } | null>(
    null,
  )
  const fileInput = useRef<HTMLInputElement>(null)
  const groupName = useId()

  const source: ImportSource | null =
    choice === 'upload' && upload
      ? { text: upload.text, name: upload.name }
      : choice === 'other'
        ? otherPath.trim()
          ? { path: otherPath.trim() }
          : null
        : choice
          ? { path: choice }
          : null

  const preview = useMutation({
    mutationFn: (from: ImportSource) => call('config:import-preview', from),
    onSuccess: (result, from) => setPreviewed({ source: from, preview: result }),
  })

  return (
    <div className="import">
      {dirty && (
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
                onChange={() => setChoice(candidate.path)}
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
              onChange={() => setChoice('other')}
            />
            <span className="import__option-label">Another file</span>
          </label>
          {choice === 'other' && (
            <TextField
              label="Path of the file"
              mono
              value={otherPath}
              onChange={(event) => setOtherPath(event.target.value)}
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
              onChange={() => setChoice('upload')}
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
            onChange={(event) => {
              const file = event.target.files?.[0]
              if (!file) return
              // readChosenFile never rejects: a failed read comes back as words to show.
              void readChosenFile(file).then((read) => {
                if ('error' in read) return setUploadError(read.error)
                setUploadError(null)
                setUpload(read)
                setChoice('upload')
              })
            }}
          />
          {choice === 'upload' && (
            <Button className="import__browse" onClick={() => fileInput.current?.click()}>
              Choose file…
            </Button>
          )}
          {uploadError && <Banner tone="bad">{uploadError}</Banner>}
        </div>
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
