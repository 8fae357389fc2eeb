import type { ServerAnswer } from '../../../../shared/model/operations'
import type { Citation, Hit } from '../../../../shared/model/rag'
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
        {body?.confidence !== undefined && (
          <span className="answer__confidence">
            confidence {Math.round(body.confidence * 100)}%
          </span>
        )}
        <span className="answer__latency muted">{formatMs(answer.latencyMs)}</span>
      </header>
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
