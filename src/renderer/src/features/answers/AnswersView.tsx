import { useMutation } from '@tanstack/react-query'
import { useCallback } from 'react'
import type { Selection } from '#shared/model/operations'
import type { Citation, Hit } from '#shared/model/rag'
import { dedupeKey } from '#shared/model/hit-identity'
import type { InvokeResult } from '#shared/ipc/contract'
import { call } from '../../api'
import { useSessionData } from '../../lib/use-session-data'
import { plural } from '../../lib/format'
import { useCheckAllRequested } from '../../state/store'
import { Banner, Button, EmptyState, Spinner } from '../../ui'
import { formatMs } from '../search/waterfall'
import { citationTarget } from '../search/access-targets'
import { searchKeys } from '../search/queries'
import { AnswerCard } from './AnswerCard'
import './Answers.css'

export interface AnswersViewProps {
  query: string
  topK: number
  selection: Selection | undefined
  /** Hits of the current search, to link citations to. */
  hits: readonly Hit[]
  onOpenHit: (hit: Hit) => void
}

/** Answers per selected server side by side, each with its citations; check them all at once. */
export function AnswersView({
  query,
  topK,
  selection,
  hits,
  onOpenHit,
}: AnswersViewProps): React.JSX.Element {
  const checkAllRequested = useCheckAllRequested()
  const [data, setData] = useSessionData<InvokeResult<'synthesis:run'>>(searchKeys.answers())
  const synthesis = useMutation({
    mutationFn: (request: { query: string; topK: number; selection?: Selection }) =>
      call('synthesis:run', request),
    onSuccess: (result) => setData(() => result),
  })
  const hitFor = useCallback(
    (citation: Citation): Hit | undefined => {
      const byId = hits.find((h) => h.server === citation.server && h.id === citation.hitId)
      if (byId || !citation.uri) return byId
      const key = dedupeKey({ id: '', uri: citation.uri })
      return hits.find((h) => h.uri !== undefined && dedupeKey(h) === key)
    },
    [hits],
  )
  const run = (): void => synthesis.mutate({ query, topK, ...(selection ? { selection } : {}) })
  const stale = data !== null && data.query !== query
  const citations = data?.answers.flatMap((a) => a.answer?.citations ?? []) ?? []

  return (
    <div className="answers-view">
      <div className="answers-view__bar" role="toolbar" aria-label="Answers">
        <Button
          variant={data && !stale ? 'secondary' : 'primary'}
          icon="layers"
          onClick={run}
          busy={synthesis.isPending}
          disabled={query.trim() === ''}
        >
          {data ? 'Compare again' : 'Compare answers'}
        </Button>
        {data && (
          <span className="muted">
            “{data.query}” · {plural(data.answers.length, 'server')} · {formatMs(data.elapsedMs)}
            {stale ? ' · the query has changed since' : ''}
          </span>
        )}
        <span className="answers-view__spacer" />
        <Button
          icon="access"
          disabled={citations.length === 0}
          onClick={() =>
            checkAllRequested(
              citations.slice(0, 1000).map(citationTarget),
              `${plural(citations.length, 'citation')} of the answers to “${data?.query ?? query}”`,
            )
          }
        >
          Check all citations
        </Button>
      </div>
      {synthesis.isError && (
        <Banner tone="bad" title="The answers could not be compared">
          {synthesis.error.message}
        </Banner>
      )}
      {synthesis.isPending && !data ? (
        <Spinner label="Asking every selected server for an answer…" />
      ) : data ? (
        <div className="answers-view__grid">
          {data.answers.map((answer) => (
            <AnswerCard key={answer.server} answer={answer} hitFor={hitFor} onOpenHit={onOpenHit} />
          ))}
        </div>
      ) : (
        <EmptyState icon="layers" title="Compare how each server answers">
          Each selected server answers the query with its own synthesis tool, or the console builds
          an extractive answer from its top hits. Citations link to the hits of the search.
        </EmptyState>
      )}
    </div>
  )
}
