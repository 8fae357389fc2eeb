import type { ServerAnswer } from '#shared/model/operations'
import type { Answer, Citation, Hit } from '#shared/model/rag'
import { useAccessRequested } from '../../state/store'
import { Badge, Banner, Button } from '../../ui'
import { citationTarget } from '../search/access-targets'
import { formatMs } from '../search/waterfall'
import {
  answerMeasure,
  chipText,
  citationDomId,
  citationLine,
  isSuspicious,
  modeBadge,
  violationsBadge,
} from './answer-card'
import { ArtifactList } from './ArtifactList'
import { parseCitedText } from './cited-text'

export interface AnswerCardProps {
  answer: ServerAnswer
  /** The hit of the current search a citation points to, if it is there. */
  hitFor: (citation: Citation) => Hit | undefined
  onOpenHit: (hit: Hit) => void
}

function CitationChip({
  citation,
  hit,
  onOpen,
}: {
  citation: Citation
  hit: Hit | undefined
  onOpen: () => void
}): React.JSX.Element {
  const { name, title } = chipText(citation, hit !== undefined)
  return (
    <button type="button" className="cite-chip" aria-label={name} title={title} onClick={onOpen}>
      {citation.n}
    </button>
  )
}

/** The server, who wrote the answer, what it can say about itself, a warning, the latency. */
function AnswerHead({ answer }: { answer: ServerAnswer }): React.JSX.Element {
  const body = answer.answer
  const mode = body && modeBadge(body)
  const measure = body && answerMeasure(body)
  return (
    <header className="answer__head">
      <code className="answer__server">{answer.server}</code>
      {mode && (
        <Badge tone={mode.tone} title={mode.title}>
          {mode.label}
        </Badge>
      )}
      {measure && (
        <span className="answer__measure" title={measure.title}>
          {measure.text}
        </span>
      )}
      {isSuspicious(body) && (
        <Badge tone="bad" title="Reads like instructions to a model (possible prompt injection)">
          suspicious
        </Badge>
      )}
      <span className="answer__latency muted">{formatMs(answer.latencyMs)}</span>
    </header>
  )
}

/** Each citation: its number, name and source, Inspect (when its hit is here), Check access. */
function CitationList({
  server,
  citations,
  hitFor,
  onOpenHit,
}: {
  server: string
  citations: readonly Citation[]
  hitFor: (citation: Citation) => Hit | undefined
  onOpenHit: (hit: Hit) => void
}): React.JSX.Element {
  const accessRequested = useAccessRequested()
  return (
    <ol className="answer__citations" aria-label={`Citations of ${server}`}>
      {citations.map((citation) => {
        const hit = hitFor(citation)
        const { label, where } = citationLine(citation)
        return (
          <li key={citation.n} id={citationDomId(server, citation.n)}>
            <span className="answer__cite-n">{citation.n}</span>
            <span className="answer__cite-label" title={citation.uri}>
              {label}
              <span className="muted">
                {' · '}
                {where}
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
              aria-label={`Check access to citation ${citation.n} of ${server}`}
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
  )
}

/** The answer text, its bracketed numbers as chips that open the cited hit. */
function CitedText({
  body,
  hitFor,
  onOpen,
}: {
  body: Answer
  hitFor: (citation: Citation) => Hit | undefined
  onOpen: (citation: Citation) => void
}): React.JSX.Element {
  return (
    <p className="answer__text">
      {parseCitedText(body.text, body.citations).map((part, index) =>
        part.kind === 'text' ? (
          <span key={index}>{part.text}</span>
        ) : (
          <CitationChip
            key={index}
            citation={part.citation}
            hit={hitFor(part.citation)}
            onOpen={() => onOpen(part.citation)}
          />
        ),
      )}
    </p>
  )
}

/** One server's answer: text with numbered citation chips, mode, confidence, silence, latency. */
export function AnswerCard({ answer, hitFor, onOpenHit }: AnswerCardProps): React.JSX.Element {
  const body = answer.answer
  const violations = body?.violations?.length ? violationsBadge(body.violations) : null
  const open = (citation: Citation): void => {
    const hit = hitFor(citation)
    if (hit) onOpenHit(hit)
    document
      .getElementById(citationDomId(answer.server, citation.n))
      ?.scrollIntoView({ block: 'nearest' })
  }
  return (
    <article className="answer" aria-label={`Answer from ${answer.server}`}>
      <AnswerHead answer={answer} />
      {isSuspicious(body) && (
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
      {body && body.text && <CitedText body={body} hitFor={hitFor} onOpen={open} />}
      {body?.limits?.truncated && (
        <p className="muted">
          Cut short: {body.limits.reason ?? 'the server truncated the answer'}
        </p>
      )}
      {body && body.citations.length > 0 && (
        <CitationList
          server={answer.server}
          citations={body.citations}
          hitFor={hitFor}
          onOpenHit={onOpenHit}
        />
      )}
      {violations && (
        <Badge tone="warn" title={violations.title}>
          {violations.label}
        </Badge>
      )}
      {body?.artifacts && body.artifacts.length > 0 && <ArtifactList artifacts={body.artifacts} />}
    </article>
  )
}
