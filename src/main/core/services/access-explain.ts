import type { ErrorInfo } from '#shared/errors'
import type { AccessResult, LinkCheck, LinkVerdict } from '#shared/model/rag'
import { urlExpiry } from './link-check'

/** Everything known after checking one citation. */
export interface AccessFacts {
  server?: string
  /** The user the check is for (their id), named in the sentence. */
  user?: string
  /** The link the citation carried. */
  originalUrl?: string
  /** What `verify_document_access` said (absent: not asked). */
  access?: AccessResult
  /** Why the server could not be asked. */
  verifyError?: ErrorInfo
  /** The HTTP check of the link the user clicked, else of the one the server issued. */
  link?: LinkCheck
  /** The HTTP check of a fresh link the server issued in place of the clicked one. */
  freshLink?: LinkCheck
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
    case 'protocol':
    case 'server_error':
    case 'tool_error':
    case 'config':
    case 'action_required':
    case 'keychain_unavailable':
    case 'not_found':
    case 'invalid_argument':
    case 'conflict':
    case 'unsupported':
    case 'internal':
      return 'server_error'
  }
}

function linkWords(link: LinkCheck, facts: AccessFacts): string {
  const http = httpFacts(link)
  switch (link.classification) {
    case 'ok':
      return `the link opens (${http})`
    case 'expired': {
      const expiry = expiryOf(link.url)
      const when =
        expiry !== undefined && expiry <= facts.now
          ? `this link expired ${roughDuration(facts.now - expiry)} ago`
          : 'this link carries a token the host no longer accepts'
      if (facts.freshLink) return `${when} (${http})`
      const remedy = facts.server
        ? facts.access && !facts.access.checked
          ? `server ${facts.server} cannot issue a fresh one (it has no verify_document_access)`
          : `server ${facts.server} did not issue a fresh one`
        : 'search again to get a fresh link'
      return `${when} (${http}); ${remedy}`
    }
    case 'forbidden':
      return `the document host refuses this link (${http})`
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
    case 'blocked':
      return `the console did not fetch this link: ${link.error ?? 'its address is refused'} (Access → Link policy, or linkPolicy in settings.json)`
    case 'invalid_url':
      return `“${link.url}” is not a web link (${link.error ?? 'only http(s) links are checked'})`
    case 'no_link':
      return 'the citation carries no link to check'
  }
}

/** What the fresh link the server issued did, after what the clicked one did. */
function freshWords(fresh: LinkCheck): string {
  return fresh.classification === 'ok'
    ? `the server can issue a fresh one (open it: ${httpFacts(fresh)})`
    : `even the fresh link the server issued fails (${httpFacts(fresh)}${fresh.error ? `: ${fresh.error}` : ''})`
}

/** Link results that say the user cannot open the document, whatever the server says. */
const REFUSED_BY_HOST: ReadonlySet<LinkVerdict> = new Set(['forbidden', 'login_wall', 'not_found'])

/** Who the sentence is about: the user checked, by id. */
const who = (facts: AccessFacts): string => facts.user ?? 'this user'

/** "the server says alice@example.com may not open it", or its own words when it gave some. */
function deniedWords(access: AccessResult, facts: AccessFacts): string {
  return access.error
    ? `the server says ${serverWords(access.error)}`
    : `the server says ${who(facts)} may not open it`
}

/**
 * One sentence when the server grants access to a link the host refuses or hides behind a
 * sign-in page (the other disagreement, a refused user whose link opens, is a leak).
 */
function conflictWords(
  access: AccessResult,
  link: LinkCheck,
  facts: AccessFacts,
): string | undefined {
  if (!access.checked || access.hasAccess !== true) return undefined
  if (!REFUSED_BY_HOST.has(link.classification)) return undefined
  const level = access.accessLevel ? ` (${access.accessLevel})` : ''
  const host =
    link.classification === 'login_wall'
      ? 'the link leads to a sign-in page'
      : link.classification === 'not_found'
        ? `the host has nothing at the link (${httpFacts(link)})`
        : `the host refuses the link (${httpFacts(link)})`
  return `the server and the document host disagree: the server says ${who(facts)} has access${level}, but ${host}`
}

/** A link that opens while the server denies the user: whoever holds the link reads it. */
function leakWords(access: AccessResult, link: LinkCheck, facts: AccessFacts): string | undefined {
  if (!access.checked || access.hasAccess !== false || link.classification !== 'ok')
    return undefined
  const said = access.error ? `: "${access.error.trim()}"` : ''
  return `the link opens for anyone who holds it (${httpFacts(link)}), but the server denies ${who(facts)}${said}`
}

export interface AccessVerdict {
  verdict: LinkVerdict
  explanation: string
  /** Set when the server's answer and the link's result disagree. */
  conflict?: true
}

/**
 * The verdict on a citation and why, in plain words. The verdict is about the link the user
 * clicked (when there was one): what the host did with it, then whether the server can issue
 * a fresh one. A server's refusal decides the verdict when the link does not open either; when
 * the server and the link disagree, one sentence says both.
 */
export function explainAccess(facts: AccessFacts): AccessVerdict {
  const { access, link, verifyError, freshLink } = facts
  const prefix = verifyError
    ? `could not ask server ${facts.server ?? verifyError.server ?? ''} (${verifyError.message}); `
    : ''
  const checked = freshLink ?? link
  const leak = access && checked ? leakWords(access, checked, facts) : undefined
  if (leak && link) return { verdict: 'leak', explanation: leak, conflict: true }
  const conflict = access && checked ? conflictWords(access, checked, facts) : undefined
  if (conflict && link)
    return { verdict: link.classification, explanation: conflict, conflict: true }
  if (access?.checked && access.hasAccess === false) {
    return { verdict: deniedVerdict(access), explanation: deniedWords(access, facts) }
  }
  if (!link) {
    if (verifyError)
      return {
        verdict: verdictOfError(verifyError),
        explanation: `${prefix}and the citation carries no link to check`,
      }
    return {
      verdict: 'no_link',
      explanation:
        access?.hasAccess === true
          ? 'the server confirms access but gives no link, and the citation carries none'
          : 'the citation carries no link to check',
    }
  }
  let words = linkWords(link, facts)
  if (freshLink && link.classification !== 'ok') words = `${words}; ${freshWords(freshLink)}`
  else if (access?.hasAccess === true && link.classification === 'ok') {
    const level = access.accessLevel ? ` (${access.accessLevel})` : ''
    words = `the server confirms access${level}, and ${words}`
  }
  return { verdict: link.classification, explanation: `${prefix}${words}` }
}
