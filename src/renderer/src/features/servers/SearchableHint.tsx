import { describeSuggestion } from '#shared/model/mapping'
import type { ServerSummary } from '#shared/model/server'
import { useWorkbenchRequested } from '../../state/store'
import { Banner, Button } from '../../ui'

/**
 * A server of no known family whose tools look like search: which ones, and a button that opens
 * the likeliest in the Workbench, where a call and "Use as search" make it a provider. Nothing
 * is called or applied from here.
 */
export function SearchableHint({ server }: { server: ServerSummary }): React.JSX.Element | null {
  const openInWorkbench = useWorkbenchRequested()
  const [first, ...others] = server.searchable ?? []
  if (!first) return null
  const also = others.length > 0 ? `; also ${others.map(describeSuggestion).join(', ')}` : ''
  return (
    <Banner
      tone="info"
      role="none"
      className="server-advice"
      actions={
        <Button
          icon="workbench"
          onClick={() => openInWorkbench(server.id, first.tool)}
          aria-label={`Map ${first.tool} of ${server.id} in the Workbench`}
        >
          Map it…
        </Button>
      }
    >
      <span className="server-advice__problem">
        Looks searchable: <code>{describeSuggestion(first)}</code>
      </span>{' '}
      <span className="muted">
        {`(${first.reason})${also}. No family was detected: call it in the Workbench, then “Use as search”.`}
      </span>
    </Banner>
  )
}
