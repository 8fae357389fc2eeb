import type { ServerAnswer } from '#shared/model/operations'
import type { Answer, Citation, Hit } from '#shared/model/rag'
import { plural } from '../../lib/format'
import { useAccessRequested } from '../../state/store'
import { Badge, Banner, Button } from '../../ui'
import { citationTarget } from '../search/access-targets'
import { formatMs } from '../search/waterfall'
import { ArtifactList } from './ArtifactList'
import { parseCitedText } from './cited-text'

export interface AnswerCardProps {
  answer: ServerAnswer
  /** The hit of the current search a citation points to, if it is there. */
  hitFor: (citation: Citation) => Hit | undefined
  onOpenHit: (hit: Hit) => void
}

const citationDomId = (server: string, n: number): string =>
  `cite-${encodeURIComponent(server)}-${n}`

function CitationChip({
  citation,
  hit,
  onOpen,
}: {
  citation: Citation
  hit: Hit | undefined
  onOpen: () => void
}): React.JSX.Element {
  return (
    <button
      type="button"
      className="cite-chip"
      aria-label={`Citation ${citation.n}: ${citation.title ?? citation.uri ?? citation.hitId ?? ''}`}
      title={`${citation.title ?? ''}${hit ? '' : ' (not among the hits of this search)'}`}
      onClick={onOpen}
    >
      {citation.n}
    </button>
  )
}

/**
 * What an answer can say about itself: the server's own confidence, or for the console's
 * extractive answer (no model, so no confidence) how many of the query's words it contains.
 */
function AnswerMeasure({ answer }: { answer: Answer }): React.JSX.Element | null {
  if (answer.mode === 'server' && answer.confidence !== undefined) {
    return (
      <span className="answer__measure" title="The confidence the server reported">
        confidence {Math.round(answer.confidence * 100)}%
      </span>
    )
  }
  if (answer.mode === 'client' && answer.coverage && answer.coverage.total > 0) {
    return (
      <span
        className="answer__measure"
        title="Built by the console from the top hits: no model and no confidence score; this counts the query's words its sentences contain"
      >
        {answer.coverage.matched} of {plural(answer.coverage.total, 'query word')} found
      </span>
    )
  }
  return null
}

/** One server's answer: text with numbered citation chips, mode, confidence, silence, latency. */
export function AnswerCard({ answer, hitFor, onOpenHit }: AnswerCardProps): React.JSX.Element {
  const accessRequested = useAccessRequested()
  const body = answer.answer
  const open = (citation: Citation): void => {
    const hit = hitFor(citation)
    if (hit) onOpenHit(hit)
    document
      .getElementById(citationDomId(answer.server, citation.n))
      ?.scrollIntoView({ block: 'nearest' })
  }
  return (
    <article className="answer" aria-label={`Answer from ${answer.server}`}>
      <header className="answer__head">
        <code className="answer__server">{answer.server}</code>
        {body && (
          <Badge
            tone={body.mode === 'server' ? 'info' : 'neutral'}
            title={
              body.mode === 'server'
                ? "The server's own synthesis tool wrote this answer"
                : 'The console built this answer from the top hits (extractive)'
            }
          >
            {body.mode === 'server' ? 'server' : 'client'}
          </Badge>
        )}
        {body && <AnswerMeasure answer={body} />}
        {body?.flags?.includes('suspicious') && (
          <Badge tone="bad" title="Reads like instructions to a model (possible prompt injection)">
            suspicious
          </Badge>
        )}
        <span className="answer__latency muted">{formatMs(answer.latencyMs)}</span>
      </header>
      {body?.flags?.includes('suspicious') && (
        <p className="answer__warning" role="note">
          This answer reads like instructions to a language model (possible prompt injection). It is
          shown as plain text; do not pass it to a model unreviewed.
        </p>
      )}
      {!answer.ok ? (
        <Banner tone="bad" title={`No answer from ${answer.server}`}>
          {answer.error?.message}
        </Banner>
      ) : body?.silence ? (
        <Banner tone="neutral" title="Silent" role="status">
          {body.silence.reason}
        </Banner>
      ) : null}
      {body && body.text && (
        <p className="answer__text">
          {parseCitedText(body.text, body.citations).map((part, index) =>
            part.kind === 'text' ? (
              <span key={index}>{part.text}</span>
            ) : (
              <CitationChip
                key={index}
                citation={part.citation}
                hit={hitFor(part.citation)}
                onOpen={() => open(part.citation)}
              />
            ),
          )}
        </p>
      )}
      {body?.limits?.truncated && (
        <p className="muted">
          Cut short: {body.limits.reason ?? 'the server truncated the answer'}
        </p>
      )}
      {body && body.citations.length > 0 && (
        <ol className="answer__citations" aria-label={`Citations of ${answer.server}`}>
          {body.citations.map((citation) => {
            const hit = hitFor(citation)
            return (
              <li key={citation.n} id={citationDomId(answer.server, citation.n)}>
                <span className="answer__cite-n">{citation.n}</span>
                <span className="answer__cite-label" title={citation.uri}>
                  {citation.title ?? citation.uri ?? citation.hitId ?? 'untitled'}
                  <span className="muted">
                    {' · '}
                    {[citation.sourceId, citation.server].filter(Boolean).join(' · ')}
                  </span>
                </span>
                {hit ? (
                  <Button variant="ghost" onClick={() => onOpenHit(hit)}>
                    Inspect
                  </Button>
                ) : (
                  <span />
                )}
                <Button
                  variant="ghost"
                  icon="access"
                  aria-label={`Check access to citation ${citation.n} of ${answer.server}`}
                  onClick={() =>
                    accessRequested(citationTarget(citation), citation.title ?? `[${citation.n}]`)
                  }
                >
                  Check access
                </Button>
              </li>
            )
          })}
        </ol>
      )}
      {body?.violations && body.violations.length > 0 && (
        <Badge tone="warn" title={body.violations.map((v) => `${v.path}: ${v.message}`).join('\n')}>
          {body.violations.length} contract violation{body.violations.length === 1 ? '' : 's'}
        </Badge>
      )}
      {body?.artifacts && body.artifacts.length > 0 && <ArtifactList artifacts={body.artifacts} />}
    </article>
  )
}
