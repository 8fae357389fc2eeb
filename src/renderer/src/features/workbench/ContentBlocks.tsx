import { formatSize } from '../search/json-text'
import { JsonBlock } from '../search/JsonBlock'

type Block = Record<string, unknown>

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined)

/** Images the page may show inline: the CSP allows `data:` images only. */
const isImage = (mime: string | undefined): boolean =>
  !!mime && /^image\/(png|jpeg|gif|webp)$/.test(mime)

const isText = (mime: string | undefined): boolean =>
  !!mime && (mime.startsWith('text/') || /[/+]json$/.test(mime))

/** A base64 blob of a text type, as text; null when it is not valid base64 or UTF-8. */
function decodeBase64(blob: string): string | null {
  try {
    const bytes = Uint8Array.from(atob(blob), (c) => c.charCodeAt(0))
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return null
  }
}

/** A text or base64 body (`text` / `blob` / `data`) with its MIME type. */
export function Body({
  text,
  blob,
  mime,
  label,
}: {
  text?: string | undefined
  blob?: string | undefined
  mime?: string | undefined
  label: string
}) {
  if (text !== undefined) {
    return (
      <pre className="wb-block__text" aria-label={label}>
        {text}
      </pre>
    )
  }
  if (blob === undefined) return null
  const decoded = isText(mime) ? decodeBase64(blob) : null
  if (decoded !== null) {
    return (
      <pre className="wb-block__text" aria-label={label}>
        {decoded}
      </pre>
    )
  }
  if (isImage(mime))
    return <img className="wb-block__image" alt={label} src={`data:${mime};base64,${blob}`} />
  return (
    <p className="muted">
      Binary, {mime ?? 'unknown type'}, {formatSize(Math.floor((blob.length * 3) / 4))}
    </p>
  )
}

/** One MCP content block: text, image, audio, an embedded resource or a link to one. */
function ContentBlock({ block, index }: { block: Block; index: number }) {
  const type = str(block.type) ?? 'unknown'
  const label = `Block ${index + 1}: ${type}`
  const resource = (block.resource ?? {}) as Block
  return (
    <li className="wb-block">
      <div className="wb-block__head">
        <span className="wb-block__kind">{type}</span>
        {str(block.mimeType) && <span className="muted">{str(block.mimeType)}</span>}
        {type === 'resource' && <code>{str(resource.uri)}</code>}
        {type === 'resource_link' && <code>{str(block.uri)}</code>}
      </div>
      {type === 'text' && <Body text={str(block.text) ?? ''} label={label} />}
      {(type === 'image' || type === 'audio') && (
        <Body blob={str(block.data) ?? ''} mime={str(block.mimeType)} label={label} />
      )}
      {type === 'resource' && (
        <Body
          text={str(resource.text)}
          blob={str(resource.blob)}
          mime={str(resource.mimeType)}
          label={label}
        />
      )}
      {type === 'resource_link' && (str(block.name) || str(block.description)) && (
        <p className="muted">
          {[str(block.name), str(block.description)].filter(Boolean).join(' — ')}
        </p>
      )}
      {!['text', 'image', 'audio', 'resource', 'resource_link'].includes(type) && (
        <JsonBlock title="Block" value={block} open />
      )}
    </li>
  )
}

/** Content blocks in order, as a list named `label`. */
export function ContentBlocks({ blocks, label }: { blocks: unknown; label: string }) {
  const list = Array.isArray(blocks) ? (blocks as Block[]) : []
  if (list.length === 0) return <p className="muted">No content blocks.</p>
  return (
    <ol className="wb-blocks" aria-label={label}>
      {list.map((block, index) => (
        <ContentBlock key={index} block={block} index={index} />
      ))}
    </ol>
  )
}
