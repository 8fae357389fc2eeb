import type { ErrorInfo } from '../../../shared/errors'
import type { AccessResult, LinkCheck, LinkVerdict } from '../../../shared/model/rag'
import { urlExpiry } from './link-check'

/** Everything known after checking one citation. */
export interface AccessFacts {
  server?: string
  /** The link the citation carried. */
  originalUrl?: string
  /** What `verify_document_access` said (absent: not asked). */
  access?: AccessResult
  /** Why the server could not be asked. */
  verifyError?: ErrorInfo
  /** The HTTP check of the refreshed link, else the original (absent: nothing to check). */
  link?: LinkCheck
  /** Wall clock, for "expired 3 h ago". */
  now: number
}

const DENIED_GONE = /delet|not found|no longer exists|removed|moved|gone/i

/** "3 h", "12 min", "2 days": how long ago or ahead, roughly. */
export function roughDuration(ms: number): string {
  const exact = Math.abs(ms) / 60_000
  if (exact < 1) return 'moments'
  const minutes = Math.round(exact)
  if (minutes < 90) return `${minutes} min`
  const hours = Math.round(minutes / 60)
  if (hours < 48) return `${hours} h`
  return `${Math.round(hours / 24)} days`
}

function expiryOf(url: string | undefined): number | undefined {
  if (!url) return undefined
  try {
    return urlExpiry(new URL(url))
  } catch {
    return undefined
  }
}

function host(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

/** "HTTP 200, application/pdf, 45 ms" */
function httpFacts(link: LinkCheck): string {
  const parts = [link.status !== undefined ? `HTTP ${link.status}` : undefined]
  if (link.contentType) parts.push(link.contentType.split(';')[0])
  parts.push(`${Math.round(link.latencyMs)} ms`)
  return parts.filter(Boolean).join(', ')
}

/** The server's own words as the end of "the server says …". */
function serverWords(error: string): string {
  const text = error.trim().replace(/[.\s]+$/, '')
  const lowered = text.charAt(0).toLowerCase() + text.slice(1)
  return /^(document|file|link|segment)\b/i.test(text) ? `the ${lowered}` : `"${text}"`
}

/** The verdict for a server that says no: gone, or not allowed. */
function deniedVerdict(access: AccessResult): LinkVerdict {
  return access.error && DENIED_GONE.test(access.error) ? 'not_found' : 'forbidden'
}

/** A verdict when there is no link to fetch and the server could not be asked. */
function verdictOfError(error: ErrorInfo): LinkVerdict {
  switch (error.code) {
    case 'unauthorized':
      return 'forbidden'
    case 'rate_limited':
      return 'rate_limited'
    case 'timeout':
    case 'unreachable':
    case 'not_connected':
    case 'cancelled':
      return 'unreachable'
    default:
      return 'server_error'
  }
}

function linkWords(link: LinkCheck, facts: AccessFacts, refreshed: boolean): string {
  const http = httpFacts(link)
  switch (link.classification) {
    case 'ok':
      return `the link opens (${http})`
    case 'expired': {
      const expiry = expiryOf(link.url)
      const when =
        expiry !== undefined && expiry <= facts.now
          ? `the signed link expired ${roughDuration(facts.now - expiry)} ago`
          : 'the link carries a token the host no longer accepts'
      if (refreshed) return `even the fresh link the server issued is refused: ${when} (${http})`
      const remedy = facts.server
        ? facts.access && !facts.access.checked
          ? `server ${facts.server} cannot issue a fresh one (it has no verify_document_access)`
          : `server ${facts.server} did not issue a fresh one`
        : 'search again to get a fresh link'
      return `${when} (${http}); ${remedy}`
    }
    case 'forbidden':
      return `the document host refuses this link (${http}): this user may not open it`
    case 'not_found':
      return link.status === 410
        ? `the document is gone from the host (${http})`
        : `nothing is at this address any more (${http}): the document was moved or deleted`
    case 'login_wall': {
      const last = link.redirects.at(-1)?.url ?? link.url
      return `the link leads to a sign-in page (${last}): it opens only for someone signed in to ${host(link.url)}`
    }
    case 'rate_limited':
      return `the document host is rate-limiting requests (${http}); try again later`
    case 'server_error':
      return link.error
        ? `the document host misbehaves: ${link.error}`
        : `the document host failed (${http})`
    case 'unreachable':
      return `could not reach ${host(link.url)}: ${link.error ?? 'no answer'}`
    case 'invalid_url':
      return `${JSON.stringify(link.url)} is not a web link (${link.error ?? 'only http(s) links are checked'})`
  }
}

/**
 * The verdict on a citation and why, in plain words: what the server said (if asked), then
 * what the link did. A server's refusal decides the verdict even when the link still opens
 * (that is worth knowing too).
 */
export function explainAccess(facts: AccessFacts): { verdict: LinkVerdict; explanation: string } {
  const { access, link, verifyError } = facts
  const prefix = verifyError
    ? `could not ask server ${facts.server ?? verifyError.server ?? ''} (${verifyError.message}); `
    : ''
  if (access?.checked && access.hasAccess === false) {
    const said = access.error
      ? `the server says ${serverWords(access.error)}`
      : 'the server says this user may not open it'
    const note =
      link?.classification === 'ok'
        ? '; note that the link itself still opens for anyone who has it'
        : ''
    return { verdict: deniedVerdict(access), explanation: `${said}${note}` }
  }
  if (!link) {
    if (verifyError)
      return {
        verdict: verdictOfError(verifyError),
        explanation: `${prefix}and the citation carries no link to check`,
      }
    return {
      verdict: 'invalid_url',
      explanation:
        access?.hasAccess === true
          ? 'the server confirms access but gives no link, and the citation carries none'
          : 'the citation carries no link to check',
    }
  }
  const refreshed = access?.refreshedUrl !== undefined && access.refreshedUrl !== facts.originalUrl
  let words = linkWords(link, facts, refreshed)
  if (refreshed && link.classification === 'ok') {
    const expiry = expiryOf(facts.originalUrl)
    words =
      expiry !== undefined && expiry <= facts.now
        ? `the signed link expired ${roughDuration(facts.now - expiry)} ago; the server issued a fresh one that works (${httpFacts(link)})`
        : `the server issued a fresh link, and it works (${httpFacts(link)})`
  } else if (access?.hasAccess === true && link.classification === 'ok') {
    const level = access.accessLevel ? ` (${access.accessLevel})` : ''
    words = `the server confirms access${level}, and ${words}`
  }
  return { verdict: link.classification, explanation: `${prefix}${words}` }
}
