import type { UseQueryResult } from '@tanstack/react-query'
import type { RawPayload } from '#shared/ipc/rag'
import type { MergedHit } from '#shared/model/operations'
import type { Artifact, Hit, Violation } from '#shared/model/rag'
import { Badge, Button, IconButton, Spinner } from '../../ui'
import { ArtifactList } from '../answers/ArtifactList'
import { GradeControl } from '../evaluation/GradeControl'
import type { Judging } from '../evaluation/use-judging'
import {
  flaggedPlaces,
  hitFields,
  hitName,
  isMerged,
  placeName,
  placeRank,
  type HitField,
} from './hit-fields'
import { JsonBlock } from './JsonBlock'
import { foundBy, foundText } from './overlap'
import { prettyJson } from './json-text'
import { useHitInspector } from './use-hit-inspector'
import './HitInspector.css'

/** The prompt-injection warning; for a merged hit, which of its copies were flagged. */
function SuspiciousNote({ hit }: { hit: Hit }): React.JSX.Element {
  const flagged = flaggedPlaces(hit)
  return (
    <div className="inspector__warning" role="note" aria-label="Possible prompt injection">
      {isMerged(hit) && flagged.length > 0 ? (
        <>
          <p>
            {flagged.length} of the {hit.foundIn.length} copies of this document read like
            instructions to a language model (possible prompt injection):
          </p>
          <ul aria-label="Flagged copies">
            {flagged.map((place, index) => (
              <li key={index}>
                <code>{placeName(place)}</code>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>This text reads like instructions to a language model (possible prompt injection).</p>
      )}
      <p>It is shown as plain text; do not pass it to a model unreviewed.</p>
    </div>
  )
}

function Provided({ derived }: { derived: boolean }): React.JSX.Element {
  return derived ? (
    <Badge tone="warn" title="The server sent none; the console derived it from the text">
      derived
    </Badge>
  ) : (
    <Badge tone="ok">provided</Badge>
  )
}

function ViolationList({ violations }: { violations: readonly Violation[] }): React.JSX.Element {
  return (
    <ul className="inspector__violations" aria-label="Violations">
      {violations.map((v, index) => (
        <li key={`${v.path}-${index}`}>
          <Badge tone="warn">{v.rule}</Badge> <code>{v.path || '(root)'}</code>
          <div>{v.message}</div>
          {v.value !== undefined && (
            <code className="inspector__value">{prettyJson(v.value).slice(0, 300)}</code>
          )}
        </li>
      ))}
    </ul>
  )
}

/** The hit's raw reply, fetched from main, which keeps those of its recent searches only. */
function RawReply({ payload }: { payload: UseQueryResult<RawPayload> }): React.JSX.Element {
  if (payload.data?.held) return <JsonBlock title="Raw reply" value={payload.data.raw} open />
  return (
    <section aria-label="Raw reply">
      <h3>Raw reply</h3>
      {payload.isPending ? (
        <Spinner label="Loading the raw reply" />
      ) : payload.isError ? (
        <p role="alert">Cannot load the raw reply: {payload.error.message}</p>
      ) : (
        <p className="muted" role="note">
          No longer held: the console keeps the raw replies of its most recent searches only. Run
          the search again to see this one.
        </p>
      )}
    </section>
  )
}

export interface HitInspectorProps {
  /** The search that found the hit (main holds its raw payloads under it). */
  searchId: string
  hit: Hit
  /** Violations of the reply that carried the hit but are not about one hit (e.g. envelope). */
  replyViolations: readonly Violation[]
  /** Attachments of the reply that carried the hit. */
  replyArtifacts?: readonly Artifact[] | undefined
  onClose: () => void
  /** Judging into a golden set: the hit's relevance control. */
  judging?: Judging | null
}

/**
 * Everything about one hit: normalized fields, full text, provided-vs-derived headline and
 * summary, provenance, violations with their JSON paths, the raw reply; Check access and Copy
 * as JSON. Server text is rendered as text only.
 */
export function HitInspector({
  searchId,
  hit,
  replyViolations,
  replyArtifacts = [],
  onClose,
  judging,
}: HitInspectorProps): React.JSX.Element {
  const { payload, checkAccess, copy } = useHitInspector(searchId, hit)
  const text = hit.text ?? hit.snippet
  return (
    <aside className="inspector" aria-label="Hit inspector">
      <div className="inspector__head">
        <h2 className="inspector__title" title={hit.title}>
          {hitName(hit)}
        </h2>
        <IconButton icon="close" label="Close the inspector" onClick={onClose} />
      </div>
      <div className="inspector__actions">
        <Button icon="access" variant="primary" onClick={checkAccess}>
          Check access
        </Button>
        <Button icon="file" onClick={copy}>
          Copy as JSON
        </Button>
      </div>
      {judging && <JudgeBar hit={hit} judging={judging} />}
      <div className="inspector__body">
        {hit.flags.includes('suspicious') && <SuspiciousNote hit={hit} />}
        <dl className="inspector__fields">
          {hitFields(hit).map((field) => (
            <div key={field.name}>
              <dt>{field.name}</dt>
              <dd>
                <FieldValue field={field} />
              </dd>
            </div>
          ))}
        </dl>

        <section aria-label="Headline and summary">
          <h3>Headline {hit.title && <Provided derived={hit.derived.title} />}</h3>
          <p className="inspector__text">{hit.title || <span className="muted">none</span>}</p>
          <h3>Summary {hit.summary && <Provided derived={hit.derived.summary} />}</h3>
          <p className="inspector__text">{hit.summary ?? <span className="muted">none</span>}</p>
        </section>

        <section aria-label="Full text">
          <h3>Text</h3>
          <div className="inspector__text inspector__fulltext">{text}</div>
        </section>

        {isMerged(hit) && <FoundIn hit={hit} />}
        <ViolationsSection violations={hit.violations} replyViolations={replyViolations} />
        {hit.provenance !== undefined && (
          <JsonBlock title="Provenance" value={hit.provenance} open />
        )}
        <RawReply payload={payload} />
        {replyArtifacts.length > 0 && (
          <section aria-label="Artifacts">
            <h3>Artifacts of the reply</h3>
            <ArtifactList artifacts={replyArtifacts} />
          </section>
        )}
      </div>
    </aside>
  )
}

/** A field's value: as text, or as code. */
function FieldValue({ field }: { field: HitField }): React.ReactNode {
  if (!field.code) return field.text
  return <code className={field.code === 'wrap' ? 'inspector__wrap' : undefined}>{field.text}</code>
}

/** The hit's relevance in the golden set judged into, for the query that found it. */
function JudgeBar({ hit, judging }: { hit: Hit; judging: Judging }): React.JSX.Element {
  return (
    <div className="inspector__judge">
      <span className="muted" title={`For the query “${judging.query}”`}>
        Relevance in {judging.setName}
      </span>
      <GradeControl
        subject={hitName(hit)}
        grade={judging.gradeOf(hit)}
        onGrade={(grade) => judging.onGrade(hit, grade)}
      />
      {judging.gradeOf(hit) !== undefined && (
        <Button variant="ghost" onClick={() => judging.onGrade(hit, null)}>
          Remove grade
        </Button>
      )}
    </div>
  )
}

/** Where a merged hit was found: each server, source and passage, its rank and score there. */
function FoundIn({ hit }: { hit: MergedHit }): React.JSX.Element {
  return (
    <section aria-label="Found in">
      <h3>{foundText(foundBy(hit))}</h3>
      <ul className="inspector__found">
        {hit.foundIn.map((place, index) => (
          <li key={index}>
            <code>{placeName(place)}</code>
            {placeRank(place)}
            {place.suspicious && (
              <>
                {' '}
                <Badge tone="bad">suspicious</Badge>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  )
}

/** The hit's own contract violations, then those of the reply that carried it. */
function ViolationsSection({
  violations,
  replyViolations,
}: {
  violations: readonly Violation[]
  replyViolations: readonly Violation[]
}): React.JSX.Element {
  return (
    <section aria-label="Contract violations">
      <h3>
        Violations <Badge tone={violations.length ? 'warn' : 'ok'}>{violations.length}</Badge>
      </h3>
      {violations.length > 0 ? (
        <ViolationList violations={violations} />
      ) : (
        <p className="muted">This hit follows its family's contract.</p>
      )}
      {replyViolations.length > 0 && (
        <>
          <h3>About the whole reply</h3>
          <ViolationList violations={replyViolations} />
        </>
      )}
    </section>
  )
}
