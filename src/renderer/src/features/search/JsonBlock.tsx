import { useMemo, useState } from 'react'
import { Button } from '../../ui'
import { formatSize, prettyJson, truncateText } from './json-text'
import './HitInspector.css'

/** Characters shown before "Show all": enough to read, small enough to stay fast. */
export const JSON_PREVIEW_CHARS = 20_000

export interface JsonBlockProps {
  /** Summary line of the collapsible block, e.g. "Raw reply". */
  title: string
  value: unknown
  /** Start expanded. */
  open?: boolean
}

/** Pretty JSON in a collapsible block; very large payloads are cut with "Show all". */
export function JsonBlock({ title, value, open = false }: JsonBlockProps): React.JSX.Element {
  const text = useMemo(() => prettyJson(value), [value])
  const [all, setAll] = useState(false)
  const { shown, cut } = all ? { shown: text, cut: false } : truncateText(text, JSON_PREVIEW_CHARS)
  return (
    <details className="json-block" open={open}>
      <summary>
        {title} <span className="muted">({formatSize(text.length)})</span>
      </summary>
      <pre className="json-block__text" aria-label={title}>
        {shown}
      </pre>
      {cut && (
        <div className="json-block__more">
          <span className="muted">
            Showing {formatSize(shown.length)} of {formatSize(text.length)}.
          </span>
          <Button variant="ghost" onClick={() => setAll(true)}>
            Show all
          </Button>
        </div>
      )}
    </details>
  )
}
