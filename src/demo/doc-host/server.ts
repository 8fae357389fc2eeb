import type { IncomingMessage, ServerResponse } from 'node:http'
import { revocationFor } from '../access'
import { getCorpus } from '../data/corpus'
import type { Handler } from '../http/listen'
import { signatureMatches } from '../links'
import { INDEX_PAGE, LOGIN_PAGE, docPage, errorPage } from './pages'

/** Options of the document host. */
export interface DocHostOptions {
  /** HMAC secret the signing servers share. */
  secret: string
  /** Clock in ms (tests may pass their own). */
  now?: () => number
}

/** Why a request was refused, sent as `x-doc-host-reason` next to the status. */
type Reason =
  | 'not_found'
  | 'deleted'
  | 'moved'
  | 'expired'
  | 'bad_signature'
  | 'revoked'
  | 'signature_required'
  | 'login_required'
  | 'rate_limited'
  | 'server_error'

function send(
  res: ServerResponse,
  req: IncomingMessage,
  status: number,
  html: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    ...headers,
  })
  res.end(req.method === 'HEAD' ? undefined : html)
}

function refuse(
  res: ServerResponse,
  req: IncomingMessage,
  status: number,
  reason: Reason,
  title: string,
  detail: string,
  headers: Record<string, string> = {},
): void {
  send(res, req, status, errorPage(status, title, detail), {
    'x-doc-host-reason': reason,
    ...headers,
  })
}

/**
 * The document host citation links point at. Internal documents open with a plain link;
 * restricted ones need a link signed for a user (`u`, `exp`, `sig`) that has not expired and
 * whose user still has access; deleted documents answer 410, moved or unknown ones 404;
 * `/portal/*` redirects to a login page; `/throttled/*` answers 429 and `/error/*` 500.
 */
export function docHostHandler(options: DocHostOptions): Handler {
  const corpus = getCorpus()
  const now = options.now ?? Date.now
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      refuse(res, req, 405, 'not_found', 'Method not allowed', 'Use GET.', { allow: 'GET, HEAD' })
      return
    }
    const url = new URL(req.url ?? '/', 'http://doc-host')
    const [, area, rawId] = url.pathname.split('/')
    const id = decodeURIComponent(rawId ?? '')
    if (url.pathname === '/') return send(res, req, 200, INDEX_PAGE)
    if (url.pathname === '/login') return send(res, req, 200, LOGIN_PAGE)
    if (area === 'portal' && id) {
      res.writeHead(302, {
        location: `/login?next=${encodeURIComponent(url.pathname)}`,
        'x-doc-host-reason': 'login_required',
      })
      res.end()
      return
    }
    if (area === 'throttled') {
      return refuse(
        res,
        req,
        429,
        'rate_limited',
        'Too many requests',
        'The file server is busy. Try again in 30 seconds.',
        { 'retry-after': '30' },
      )
    }
    if (area === 'error') {
      return refuse(
        res,
        req,
        500,
        'server_error',
        'Internal server error',
        'The document viewer crashed while rendering this file.',
      )
    }
    const doc = area === 'docs' ? corpus.byId.get(id) : undefined
    if (!doc)
      return refuse(res, req, 404, 'not_found', 'Not found', `No document at ${url.pathname}.`)
    if (doc.status === 'deleted') {
      return refuse(
        res,
        req,
        410,
        'deleted',
        'Gone',
        `"${doc.title || doc.fileName}" has been deleted.`,
      )
    }
    if (doc.status === 'moved') {
      return refuse(
        res,
        req,
        404,
        'moved',
        'Not found',
        'This document was moved; search for it again to get its new link.',
      )
    }
    const sig = url.searchParams.get('sig')
    if (sig !== null) {
      const user = url.searchParams.get('u') ?? ''
      const exp = Number(url.searchParams.get('exp'))
      if (!Number.isInteger(exp) || !signatureMatches(doc.id, user, exp, sig, options.secret)) {
        return refuse(res, req, 403, 'bad_signature', 'Forbidden', 'The link signature is invalid.')
      }
      if (exp * 1000 < now()) {
        const when = new Date(exp * 1000).toISOString()
        return refuse(
          res,
          req,
          403,
          'expired',
          'Link expired',
          `This signed link expired at ${when}. Ask for a fresh link.`,
        )
      }
      const revoked = revocationFor(doc.id, user)
      if (revoked)
        return refuse(
          res,
          req,
          403,
          'revoked',
          'Forbidden',
          `Access was revoked for ${user}: ${revoked.reason}.`,
        )
      return send(res, req, 200, docPage(doc))
    }
    if (doc.restricted) {
      return refuse(
        res,
        req,
        403,
        'signature_required',
        'Forbidden',
        'This document is restricted and opens only with a signed link.',
      )
    }
    return send(res, req, 200, docPage(doc))
  }
}
