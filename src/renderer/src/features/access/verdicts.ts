import type { AccessTargetInput } from '#shared/ipc/rag'
import { LINK_VERDICTS, type AccessCheck, type LinkVerdict } from '#shared/model/rag'
import type { Tone } from '../../ui'

/** How each verdict class reads in the console: a short label and its tone. */
export const VERDICTS: Record<LinkVerdict, { label: string; tone: Tone }> = {
  ok: { label: 'opens', tone: 'ok' },
  leak: { label: 'leak', tone: 'bad' },
  expired: { label: 'link expired', tone: 'warn' },
  forbidden: { label: 'forbidden', tone: 'bad' },
  not_found: { label: 'not found', tone: 'bad' },
  login_wall: { label: 'login wall', tone: 'warn' },
  rate_limited: { label: 'rate limited', tone: 'warn' },
  server_error: { label: 'server error', tone: 'bad' },
  unreachable: { label: 'unreachable', tone: 'bad' },
  blocked: { label: 'address refused', tone: 'warn' },
  invalid_url: { label: 'not a web link', tone: 'neutral' },
  no_link: { label: 'no link', tone: 'neutral' },
}

/** Verdict counts in the fixed order of {@link LINK_VERDICTS}, classes with none left out. */
export function verdictCounts(
  checks: readonly AccessCheck[],
): { verdict: LinkVerdict; count: number }[] {
  const counts = new Map<LinkVerdict, number>()
  for (const check of checks) counts.set(check.verdict, (counts.get(check.verdict) ?? 0) + 1)
  return LINK_VERDICTS.filter((v) => counts.has(v)).map((verdict) => ({
    verdict,
    count: counts.get(verdict)!,
  }))
}

/** The parts of a target a person recognises it by. */
export interface TargetParts {
  server?: string
  segmentId?: string
  url?: string
}

/** Flattens a hit, citation or plain target into server, segment id and link. */
export function targetParts(target: AccessTargetInput): TargetParts {
  const parts: TargetParts = {}
  const from =
    'hit' in target
      ? { server: target.hit.server, segmentId: target.hit.id, url: target.hit.uri }
      : 'citation' in target
        ? {
            server: target.citation.server,
            segmentId: target.citation.hitId,
            url: target.citation.uri,
          }
        : target
  if (from.server) parts.server = from.server
  if (from.segmentId) parts.segmentId = from.segmentId
  if (from.url) parts.url = from.url
  return parts
}

/** `knowledgeSearch · hb-pto-policy#0`, else the link. */
export function describeTarget(parts: TargetParts): string {
  if (parts.server && parts.segmentId) return `${parts.server} · ${parts.segmentId}`
  return parts.url ?? parts.server ?? '(nothing)'
}

/** What the access form holds, as typed. */
export interface TargetDraft {
  url: string
  server: string
  segmentId: string
}

export const EMPTY_DRAFT: TargetDraft = { url: '', server: '', segmentId: '' }

/** Field-level problems of a draft; empty when it can be checked. */
export type DraftErrors = Partial<Record<keyof TargetDraft | 'form', string>>

/**
 * Turns the form into a check target: a link, a server and segment id, or all three (as a hit
 * carries them). Says which field to fill when it cannot.
 */
export function targetFromDraft(
  draft: TargetDraft,
): { ok: true; target: AccessTargetInput } | { ok: false; errors: DraftErrors } {
  const url = draft.url.trim()
  const server = draft.server.trim()
  const segmentId = draft.segmentId.trim()
  const errors: DraftErrors = {}
  if (segmentId && !server) errors.server = 'Pick the server this segment id comes from.'
  if (server && !segmentId) errors.segmentId = 'Enter the segment id to check on this server.'
  if (!url && !server && !segmentId)
    errors.form = 'Paste a link, or pick a server and enter a segment id.'
  if (Object.keys(errors).length > 0) return { ok: false, errors }
  const target: TargetParts = {}
  if (url) target.url = url
  if (server && segmentId) {
    target.server = server
    target.segmentId = segmentId
  }
  return { ok: true, target }
}

/** The form filled in from a target (a handoff or a history entry). */
export function draftFromTarget(target: AccessTargetInput): TargetDraft {
  const parts = targetParts(target)
  return { url: parts.url ?? '', server: parts.server ?? '', segmentId: parts.segmentId ?? '' }
}

/** Rows of a batch whose verdict is among `verdicts` (all when empty) and that mention `text`. */
export function filterChecks<T extends { check: AccessCheck }>(
  rows: readonly T[],
  verdicts: ReadonlySet<LinkVerdict>,
  text: string,
): T[] {
  const needle = text.trim().toLowerCase()
  return rows.filter(
    ({ check }) =>
      (verdicts.size === 0 || verdicts.has(check.verdict)) &&
      (!needle ||
        [check.server, check.segmentId, check.url, check.explanation, check.access?.accessLevel]
          .filter(Boolean)
          .some((field) => field!.toLowerCase().includes(needle))),
  )
}

/** Most targets one batch may carry (the `access:check-all` limit). */
export const MAX_BATCH = 1000

/**
 * Links pasted one per line (blank lines and repeats dropped), as batch targets; says why
 * when there are none or too many.
 */
export function linksFromText(
  text: string,
): { ok: true; targets: { url: string }[] } | { ok: false; error: string } {
  const links = [...new Set(text.split(/\r?\n/).map((line) => line.trim()))].filter(Boolean)
  if (links.length === 0) return { ok: false, error: 'Paste at least one link, one per line.' }
  if (links.length > MAX_BATCH) {
    return {
      ok: false,
      error: `${links.length} links: a batch checks at most ${MAX_BATCH}; split the list.`,
    }
  }
  return { ok: true, targets: links.map((url) => ({ url })) }
}

/** The explanation as a sentence: capital first letter, full stop. */
export function sentence(text: string): string {
  const trimmed = text.trim()
  if (!trimmed) return trimmed
  const first = trimmed.charAt(0).toUpperCase() + trimmed.slice(1)
  return /[.!?]$/.test(first) ? first : `${first}.`
}
