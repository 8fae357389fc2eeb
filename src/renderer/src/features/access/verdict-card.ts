import type { AccessCheck } from '#shared/model/rag'
import type { ActingUser, Profile } from '#shared/model/user'
import type { Tone } from '../../ui'

/**
 * The verdict card's decisions: whether the verdict is for someone other than the profile now
 * chosen, which fresh link the server issued, and how each HTTP status reads.
 */

/** Whether two acting users would be answered alike by a server: same id, tags and human uid. */
export function sameIdentity(a: ActingUser, b: ActingUser): boolean {
  return (
    a.userId === b.userId &&
    (a.humanUid ?? '') === (b.humanUid ?? '') &&
    a.sessionTags.join('\n') === b.sessionTags.join('\n')
  )
}

/**
 * The “Check as” profile when the verdict was for someone else: the card marks it as checked
 * earlier. Undefined when none is chosen or it is the user checked.
 */
export function earlierThan(check: AccessCheck, checkAs: Profile | undefined): Profile | undefined {
  return checkAs && !sameIdentity(checkAs, check.user) ? checkAs : undefined
}

/** The link the server issued in place of the one checked, when it is a different one. */
export function freshLinkOf(check: AccessCheck): string | undefined {
  const refreshed = check.access?.refreshedUrl
  return refreshed && refreshed !== check.url ? refreshed : undefined
}

/** How an HTTP hop's status reads: success, a redirect, refused for now, or failed. */
export function hopTone(status: number): Tone {
  if (status < 300) return 'ok'
  if (status < 400) return 'info'
  if (status === 429 || status === 401 || status === 403) return 'warn'
  return 'bad'
}
