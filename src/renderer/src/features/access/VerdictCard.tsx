import type { AccessCheck, LinkCheck, LinkHop } from '#shared/model/rag'
import type { Profile } from '#shared/model/user'
import { isRedactedLink } from '#shared/redacted'
import { openExternal } from '../../api'
import { formatAgo, formatTime } from '../../lib/format'
import { Badge, Button, CopyButton, Icon } from '../../ui'
import { earlierThan, freshLinkOf, hopTone } from './verdict-card'
import { describeTarget, sentence, VERDICTS } from './verdicts'

export interface VerdictCardProps {
  check: AccessCheck
  /** The “Check as” profile now chosen: a verdict for someone else is marked as earlier. */
  checkAs?: Profile | undefined
  /** Checks the same target again, bypassing the cache. */
  onCheckAgain: () => void
  checkingAgain: boolean
}

/**
 * The answer to "does this citation still open, for this user?": the verdict on the link the
 * user clicked in plain words, what the server said, the fresh link it can issue (to open),
 * every HTTP hop of both, whether server and link disagree, and how fresh the answer is.
 */
export function VerdictCard({
  check,
  checkAs,
  onCheckAgain,
  checkingAgain,
}: VerdictCardProps): React.JSX.Element {
  const verdict = VERDICTS[check.verdict]
  const earlier = earlierThan(check, checkAs)
  return (
    <section
      className={`access-card access-card--${verdict.tone}${earlier ? ' access-card--earlier' : ''}`}
      aria-label="Verdict"
    >
      {earlier && (
        <p className="access-card__earlier" role="note">
          <Icon name="warning" size={14} /> This verdict is for {check.user.userId}, checked
          earlier. “Check as” is now {earlier.name} ({earlier.userId}): press Check to see it for
          them.
        </p>
      )}
      <header className="access-card__head">
        <Badge tone={verdict.tone} dot className="access-card__verdict">
          {verdict.label}
        </Badge>
        {earlier && <Badge tone="neutral">as {check.user.userId}</Badge>}
        {check.conflict && check.verdict !== 'leak' && (
          <Badge tone="warn">server and link disagree</Badge>
        )}
        <span className="access-card__target truncate" title={describeTarget(check)}>
          {describeTarget(check)}
        </span>
        <CheckedWhen check={check} />
        <Button icon="refresh" onClick={onCheckAgain} busy={checkingAgain}>
          Check again
        </Button>
      </header>
      <p className="access-card__explanation">{sentence(check.explanation)}</p>
      <VerdictFacts check={check} />
    </section>
  )
}

/** When the answer was checked, and whether it came from the cache. */
function CheckedWhen({ check }: { check: AccessCheck }): React.JSX.Element {
  return (
    <span className="access-card__when" title={new Date(check.checkedAt).toISOString()}>
      {check.cached ? (
        <>
          <Badge tone="info">cached</Badge> checked {formatAgo(check.checkedAt)} (
          {formatTime(check.checkedAt)})
        </>
      ) : (
        <>
          <Badge tone="neutral">fresh</Badge> checked at {formatTime(check.checkedAt)}
        </>
      )}
    </span>
  )
}

/** The check's facts: whom it was for, the server's answer, the links and their HTTP chains. */
function VerdictFacts({ check }: { check: AccessCheck }): React.JSX.Element {
  const fresh = freshLinkOf(check)
  return (
    <dl className="access-card__facts">
      <dt>User</dt>
      <dd>
        <code>{check.user.userId}</code>
        {check.user.sessionTags.length > 0 && (
          <span className="muted"> · tags: {check.user.sessionTags.join(', ')}</span>
        )}
      </dd>
      <dt>Has access</dt>
      <dd>
        <HasAccess check={check} />
      </dd>
      {check.access?.accessLevel && (
        <>
          <dt>Access level</dt>
          <dd>{check.access.accessLevel}</dd>
        </>
      )}
      {check.url ? (
        <>
          <dt>Link</dt>
          <dd className="access-card__url">
            <code className="truncate" title={check.url}>
              {check.url}
            </code>
            {isRedactedLink(check.url) && <SignatureNotSaved />}
          </dd>
        </>
      ) : (
        <>
          <dt>Link</dt>
          <dd className="muted">no link to fetch</dd>
        </>
      )}
      {check.link && <HttpChain link={check.link} />}
      {fresh && <FreshLink url={fresh} />}
      {check.freshLink && (
        <HttpChain link={check.freshLink} term="Fresh chain" label="Fresh link's HTTP chain" />
      )}
      {check.error && (
        <>
          <dt>Error</dt>
          <dd className="access-card__error">
            {check.error.server ? `${check.error.server}: ` : ''}
            {check.error.message}
          </dd>
        </>
      )}
      {check.access && check.access.violations.length > 0 && (
        <>
          <dt>Contract</dt>
          <dd>
            <ul className="access-card__violations">
              {check.access.violations.map((v) => (
                <li key={`${v.rule}:${v.path}`}>
                  <code>{v.path}</code> {v.message}
                </li>
              ))}
            </ul>
          </dd>
        </>
      )}
    </dl>
  )
}

/** The link the server issued in place of the checked one: to open or copy, unless redacted. */
function FreshLink({ url }: { url: string }): React.JSX.Element {
  return (
    <>
      <dt>Fresh link</dt>
      <dd className="access-card__url">
        <code className="truncate" title={url}>
          {url}
        </code>
        {isRedactedLink(url) ? (
          <SignatureNotSaved />
        ) : (
          <>
            <Button variant="ghost" onClick={() => void openExternal(url)}>
              Open it
            </Button>
            <CopyButton text={url} label="Copy the fresh link" />
          </>
        )}
      </dd>
    </>
  )
}

function HasAccess({ check }: { check: AccessCheck }): React.JSX.Element {
  const access = check.access
  if (!access) {
    return (
      <span className="muted">
        not asked{check.server ? '' : ': give a server and segment id to ask the server'}
      </span>
    )
  }
  if (!access.checked || access.hasAccess === null) {
    return <span className="muted">unknown: {access.server} cannot verify access</span>
  }
  return access.hasAccess ? (
    <Badge tone="ok">yes</Badge>
  ) : (
    <>
      <Badge tone="bad">no</Badge>
      {access.error && <span className="access-card__said"> the server says “{access.error}”</span>}
    </>
  )
}

/** A link check's requests, and why it stopped when it did. */
function HttpChain({
  link,
  term = 'HTTP chain',
  label = term,
}: {
  link: LinkCheck
  term?: string
  label?: string
}): React.JSX.Element {
  return (
    <>
      <dt>{term}</dt>
      <dd>
        <HopChain hops={link.redirects} label={label} />
        {link.error && <div className="access-card__error">{link.error}</div>}
        {link.redirects.length === 0 && !link.error && (
          <span className="muted">no request was made</span>
        )}
      </dd>
    </>
  )
}

/** Each request of the check in order: status, address, time. */
function HopChain({
  hops,
  label,
}: {
  hops: readonly LinkHop[]
  label: string
}): React.JSX.Element | null {
  if (hops.length === 0) return null
  return (
    <ol className="access-hops" aria-label={label}>
      {hops.map((hop, index) => (
        <li key={`${index}:${hop.url}`} className="access-hops__hop">
          <Badge tone={hopTone(hop.status)} className="access-hops__status">
            {hop.status}
          </Badge>
          <code className="truncate" title={hop.url}>
            {hop.url}
          </code>
          <span className="access-hops__time">{Math.round(hop.latencyMs)} ms</span>
        </li>
      ))}
    </ol>
  )
}

/** A signed link from the history: shown without its signature, which is never saved. */
function SignatureNotSaved(): React.JSX.Element {
  return (
    <span
      className="muted access-card__unsigned"
      title="A signed link opens the document for whoever holds it: the console keeps it without its signature."
    >
      signature not saved
    </span>
  )
}
