import { useState } from 'react'
import type { Artifact } from '#shared/model/rag'
import { Badge, Button } from '../../ui'
import { formatSize } from '../search/json-text'
import '../search/HitInspector.css'
import { base64Bytes, decodeBase64Text, isHtml, isText } from './artifact-text'

function ArtifactItem({ artifact }: { artifact: Artifact }): React.JSX.Element {
  const [open, setOpen] = useState(false)
  const name = artifact.name ?? '(unnamed)'
  const viewable = isHtml(artifact.mime) || isText(artifact.mime)
  const text = open ? decodeBase64Text(artifact.b64) : undefined
  return (
    <li className="artifact">
      <div className="artifact__head">
        <code>{name}</code>
        <Badge>{artifact.mime}</Badge>
        <span className="muted">{formatSize(base64Bytes(artifact.b64))}</span>
        {viewable && (
          <Button variant="ghost" onClick={() => setOpen(!open)} aria-expanded={open}>
            {open ? 'Hide' : isHtml(artifact.mime) ? 'Preview (sandboxed)' : 'Show'}
          </Button>
        )}
      </div>
      {open &&
        (text === undefined ? (
          <p className="muted">The body is not valid base64.</p>
        ) : isHtml(artifact.mime) ? (
          // No scripts, forms, popups or same-origin access: the page is inert text and layout.
          <iframe
            className="artifact__frame"
            title={`Preview of ${name}`}
            sandbox=""
            srcDoc={text}
          />
        ) : (
          <pre className="json-block__text artifact__text">{text}</pre>
        ))}
    </li>
  )
}

/** Attachments with their mime type; HTML only inside a sandboxed frame, the rest as text. */
export function ArtifactList({ artifacts }: { artifacts: readonly Artifact[] }): React.JSX.Element {
  return (
    <ul className="artifacts" aria-label="Artifacts">
      {artifacts.map((artifact, index) => (
        <ArtifactItem key={`${artifact.name ?? ''}-${index}`} artifact={artifact} />
      ))}
    </ul>
  )
}
