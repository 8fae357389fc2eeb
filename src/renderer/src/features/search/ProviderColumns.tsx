import type { ServerSearchResult } from '../../../../shared/model/operations'
import type { Hit } from '../../../../shared/model/rag'
import { Badge, EmptyState } from '../../ui'
import type { Judging } from '../evaluation/use-judging'
import { HitList } from './HitList'
import { providerOverlap, type OverlapIndex } from './overlap'
import { formatMs } from './waterfall'
import './HitList.css'

export interface ProviderColumnsProps {
  servers: readonly ServerSearchResult[]
  overlap: OverlapIndex
  selectedKey: string | null
  onSelect: (hit: Hit) => void
  judging?: Judging | null
}

function ColumnHead({ result, overlap }: { result: ServerSearchResult; overlap: OverlapIndex }) {
  const { shared, only } = providerOverlap(overlap, result)
  return (
    <div className="provider__head">
      <code className="provider__name">{result.server}</code>
      <span className="muted">{formatMs(result.latencyMs)}</span>
      {result.ok ? (
        <span
          className="provider__overlap"
          title="Documents other providers returned too / only this one"
        >
          <Badge tone="info">{shared} shared</Badge>
          <Badge>{only} only</Badge>
        </span>
      ) : (
        <Badge tone="bad" dot>
          {result.error?.code ?? 'failed'}
        </Badge>
      )}
    </div>
  )
}

/** Each provider's own ranking side by side, with what it shares with the others. */
export function ProviderColumns({
  servers,
  overlap,
  selectedKey,
  onSelect,
  judging,
}: ProviderColumnsProps): React.JSX.Element {
  if (servers.length === 0) {
    return <EmptyState icon="servers" title="No server has answered yet" />
  }
  // Providers with hits first (those are compared), then empty ones, then failures; by name.
  const group = (r: ServerSearchResult): number => (!r.ok ? 2 : r.hits.length === 0 ? 1 : 0)
  const ordered = [...servers].sort(
    (a, b) => group(a) - group(b) || a.server.localeCompare(b.server),
  )
  return (
    <div className="providers">
      {ordered.map((result) => (
        <section key={result.server} className="provider" aria-label={`Hits from ${result.server}`}>
          <ColumnHead result={result} overlap={overlap} />
          <HitList
            label={`${result.server} hits`}
            hits={result.hits}
            overlap={overlap}
            selectedKey={selectedKey}
            onSelect={onSelect}
            showServer={false}
            judging={judging}
            empty={
              <p className="provider__empty">
                {result.ok ? 'No hits.' : (result.error?.message ?? 'The search failed here.')}
              </p>
            }
          />
        </section>
      ))}
    </div>
  )
}
