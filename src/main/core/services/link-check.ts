import type { LinkCheck, LinkClass, LinkHop } from '#shared/model/rag'
import { LinkRefused, type LinkPolicy } from './link-policy'

export interface LinkCheckOptions {
  /** Whole check, all hops included. */
  timeoutMs?: number
  maxRedirects?: number
  signal?: AbortSignal
  /** Injected for tests; defaults to the global fetch. */
  fetch?: typeof fetch
  now?: () => number
  /**
   * Decides every address before it is requested (the first and each redirect), and again as
   * it connects (its fetch is used unless `fetch` is given).
   */
  policy?: LinkPolicy
}

/** Query parameters that make a URL "tokenised" (signed or carrying credentials). */
const TOKEN_PARAMS =
  /^(token|sig|signature|exp|expires|expiry|x-amz-signature|x-amz-expires|x-goog-signature|se|sv|st|access_token|auth|key)$/i
const EXPIRY_PARAMS = /^(exp|expires|expiry|expires_at|x-amz-expires|se)$/i
const LOGIN_PATH = /\/(login|log-in|signin|sign-in|sso|auth|oauth2?|saml|account\/login)(\/|$|\?)/i

export function isTokenisedUrl(url: URL): boolean {
  return [...url.searchParams.keys()].some((key) => TOKEN_PARAMS.test(key))
}

/**
 * The expiry a signed URL declares, as epoch ms, when it has one we can read: an epoch in
 * seconds or milliseconds, or an ISO date.
 */
export function urlExpiry(url: URL): number | undefined {
  for (const [key, value] of url.searchParams) {
    if (!EXPIRY_PARAMS.test(key)) continue
    if (/^\d{9,13}$/.test(value)) {
      const n = Number(value)
      return n < 1e12 ? n * 1000 : n
    }
    const parsed = Date.parse(value)
    if (!Number.isNaN(parsed)) return parsed
  }
  return undefined
}

export function looksLikeLoginPage(url: URL): boolean {
  return LOGIN_PATH.test(url.pathname)
}

function parseHttpUrl(value: string): URL | null {
  const parsed = checkUrl(value)
  return typeof parsed === 'string' ? null : parsed
}

const URL_PROBLEMS = {
  malformed: 'a malformed URL',
  scheme: 'a non-http(s) URL',
  // fetch refuses them, and the password must not be echoed back in the verdict.
  credentials: 'a URL with a user name or password',
}

/** The URL, or why it is not fetched. */
function checkUrl(value: string, base?: URL): URL | keyof typeof URL_PROBLEMS {
  let url: URL
  try {
    url = new URL(value, base)
  } catch {
    return 'malformed'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'scheme'
  if (url.username || url.password) return 'credentials'
  return url
}

/** A URL as text without its `user:password@` part. */
function withoutUserinfo(text: string): string {
  return text.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1')
}

/** Maps the final HTTP status of a chain to a verdict. */
export function classifyStatus(
  status: number,
  original: URL,
  hops: LinkHop[],
  now: number = Date.now(),
): LinkClass {
  // Sent somewhere else that is a login page: the link needs a session the user lacks.
  const wentThroughLogin = hops.some((hop) => {
    const url = parseHttpUrl(hop.url)
    return url !== null && hop.url !== original.href && looksLikeLoginPage(url)
  })
  if (status >= 200 && status < 300) return wentThroughLogin ? 'login_wall' : 'ok'
  if (status === 401 || status === 403) {
    if (wentThroughLogin) return 'login_wall'
    if (!isTokenisedUrl(original)) return 'forbidden'
    // A signed link that says it is still valid was refused for another reason (revoked).
    const expiry = urlExpiry(original)
    return expiry !== undefined && expiry > now ? 'forbidden' : 'expired'
  }
  if (status === 404 || status === 410) return 'not_found'
  if (status === 429) return 'rate_limited'
  if (status >= 500) return 'server_error'
  if (status === 407) return 'forbidden'
  return 'server_error'
}

/**
 * Checks that a link opens: GET with redirects followed by hand (each hop recorded, at most
 * `maxRedirects`), bounded in time, body never downloaded. Only http(s) URLs are fetched, on
 * every hop, and only addresses the `policy` allows (a refused one is the verdict `blocked`,
 * with nothing sent to it). Never throws: failures are verdicts.
 */
export async function checkLink(value: string, options: LinkCheckOptions = {}): Promise<LinkCheck> {
  const now = options.now ?? Date.now
  const doFetch = options.fetch ?? options.policy?.fetch ?? fetch
  const maxRedirects = options.maxRedirects ?? 5
  const started = now()
  const checked = checkUrl(value)
  if (typeof checked === 'string') {
    return {
      url: withoutUserinfo(value),
      ok: false,
      classification: 'invalid_url',
      latencyMs: 0,
      redirects: [],
      error:
        checked === 'credentials'
          ? 'the URL carries a user name or password: links are checked without credentials'
          : 'only http(s) URLs are checked',
    }
  }
  const original = checked
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 10_000)
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout
  const hops: LinkHop[] = []
  let current = original
  try {
    for (;;) {
      const refused = await options.policy?.check(current)
      if (refused) return blocked(current, refused)
      const hopStarted = now()
      const response = await doFetch(current, {
        method: 'GET',
        redirect: 'manual',
        signal,
        headers: { Accept: 'text/html,application/pdf,*/*;q=0.8' },
      })
      await response.body?.cancel().catch(() => undefined)
      hops.push({ url: current.href, status: response.status, latencyMs: now() - hopStarted })
      const location = response.headers.get('location')
      if (response.status >= 300 && response.status < 400 && location) {
        if (hops.length > maxRedirects) {
          return result('server_error', response, `more than ${maxRedirects} redirects`)
        }
        const next = checkUrl(location, current)
        if (next === 'scheme') {
          const target = new URL(location, current)
          return blocked(target, `redirected to a non-http(s) address (${target.protocol})`)
        }
        if (typeof next === 'string') {
          const what =
            next === 'malformed' ? 'a malformed redirect' : `redirected to ${URL_PROBLEMS[next]}`
          return result('invalid_url', response, `${what}: ${withoutUserinfo(location)}`)
        }
        current = next
        continue
      }
      return result(classifyStatus(response.status, original, hops, now()), response)
    }
  } catch (error) {
    const refused = (error as { cause?: unknown })?.cause
    if (refused instanceof LinkRefused) return blocked(current, refused.message)
    const aborted = options.signal?.aborted
    return {
      url: original.href,
      ok: false,
      classification: 'unreachable',
      latencyMs: now() - started,
      redirects: hops,
      error: aborted
        ? 'cancelled'
        : timeout.aborted
          ? `no answer within ${options.timeoutMs ?? 10_000} ms`
          : describeNetworkError(error),
    }
  }

  function blocked(url: URL, reason: string): LinkCheck {
    return {
      url: original!.href,
      ok: false,
      classification: 'blocked',
      latencyMs: now() - started,
      redirects: hops,
      error: hops.length > 0 ? `${reason}; not followed to ${url.href}` : reason,
    }
  }

  function result(classification: LinkClass, response: Response, error?: string): LinkCheck {
    const check: LinkCheck = {
      url: original!.href,
      status: response.status,
      ok: classification === 'ok',
      classification,
      latencyMs: now() - started,
      redirects: hops,
    }
    const contentType = response.headers.get('content-type')
    if (contentType) check.contentType = contentType
    if (error) check.error = error
    return check
  }
}

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause
  if (cause?.code) return `${cause.code}${cause.message ? `: ${cause.message}` : ''}`
  return error instanceof Error ? error.message : String(error)
}
