import { createHmac, timingSafeEqual } from 'node:crypto'
import type { Doc } from './data/types'

/** Where `unreachable` links point: the discard port, closed on any sane machine. */
export const UNREACHABLE_ORIGIN = 'http://127.0.0.1:9'

/** Expiry of `stale` links: long past (2024-01-01). */
export const STALE_EXPIRY = Date.UTC(2024, 0, 1) / 1000

/** Everything needed to build one user's citation links. */
export interface LinkContext {
  /** Base URL of the document host, without a trailing slash. */
  docHost: string
  /** The user the signed links are issued to (anonymous when unknown). */
  userId: string
  ttlSeconds: number
  secret: string
  /** Current time in ms (tests pass a fixed clock). */
  now?: number
}

/** HMAC over document, user and expiry, hex, 32 characters. */
export function linkSignature(docId: string, userId: string, exp: number, secret: string): string {
  return createHmac('sha256', secret)
    .update(`${docId}\n${userId}\n${exp}`)
    .digest('hex')
    .slice(0, 32)
}

/** Constant-time check of a link signature. */
export function signatureMatches(
  docId: string,
  userId: string,
  exp: number,
  sig: string,
  secret: string,
): boolean {
  const expected = Buffer.from(linkSignature(docId, userId, exp, secret))
  const given = Buffer.from(sig)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/** `<docHost>/docs/<id>?u=…&exp=…&sig=…`. */
export function signedDocUrl(
  docHost: string,
  docId: string,
  userId: string,
  exp: number,
  secret: string,
): string {
  const query = new URLSearchParams({
    u: userId,
    exp: String(exp),
    sig: linkSignature(docId, userId, exp, secret),
  })
  return `${docHost}/docs/${encodeURIComponent(docId)}?${query}`
}

/**
 * The citation link of a document for one user, by its link kind (see `LinkKind`); undefined
 * when the document has no online copy.
 */
export function citationUrl(doc: Doc, ctx: LinkContext): string | undefined {
  if (doc.omit.url) return undefined
  const id = encodeURIComponent(doc.id)
  const now = ctx.now ?? Date.now()
  switch (doc.link) {
    case 'portal':
      return `${ctx.docHost}/portal/${id}`
    case 'throttled':
      return `${ctx.docHost}/throttled/${id}`
    case 'failing':
      return `${ctx.docHost}/error/${id}`
    case 'unreachable':
      return `${UNREACHABLE_ORIGIN}/wiki/${id}`
    case 'invalid':
      return `\\\\fileserver\\${doc.source}\\${doc.fileName}`
    case 'stale':
      return signedDocUrl(ctx.docHost, doc.id, ctx.userId, STALE_EXPIRY, ctx.secret)
    case 'plain':
      return `${ctx.docHost}/docs/${id}`
    case 'auto':
      if (!doc.restricted) return `${ctx.docHost}/docs/${id}`
      return signedDocUrl(
        ctx.docHost,
        doc.id,
        ctx.userId,
        Math.floor(now / 1000) + ctx.ttlSeconds,
        ctx.secret,
      )
  }
}

/**
 * A link that works now for this user: like {@link citationUrl}, but stale links are re-signed
 * (what `verify_document_access` hands out as `refreshed_url`).
 */
export function freshUrl(doc: Doc, ctx: LinkContext): string | undefined {
  if (doc.link !== 'stale') return citationUrl(doc, ctx)
  const exp = Math.floor((ctx.now ?? Date.now()) / 1000) + ctx.ttlSeconds
  return signedDocUrl(ctx.docHost, doc.id, ctx.userId, exp, ctx.secret)
}
