import { REDACTED } from '#shared/redacted'
import { decodeSafely } from '#shared/text/decode'

/**
 * Query parameters that make a link a credential: whoever holds it opens the document (S3 / GCS
 * / Azure signed URLs, `?sig=…&exp=…`, `?token=…`, Azure Functions' `?code=…`). The expiry is
 * part of what is signed.
 */
export const SIGNING_PARAMS =
  /^(token|sig|signature|exp|expires|expiry|x-amz-signature|x-amz-credential|x-amz-security-token|x-amz-expires|x-goog-signature|x-goog-credential|x-goog-expires|se|sv|st|sp|access_token|auth|key|code)$/i

/**
 * An http(s) URL in free text, to its end. The query is found in the match rather than by the
 * expression: one that needs a `?` after the path fails at every `http://` of a long text without
 * one, each time after reading to its end (quadratic).
 */
const LINK_RE = /\bhttps?:\/\/[^\s"'<>]*/gi

/**
 * The text with the value of every signing parameter of every http(s) link in it replaced by
 * {@link REDACTED}; scheme, host, path and the other parameters stay as they were.
 */
export function redactSignedLinks(text: string): string {
  if (!text.includes('://')) return text
  return text.replace(LINK_RE, (link) => {
    const at = link.indexOf('?')
    const hash = link.indexOf('#')
    if (at < 0 || (hash >= 0 && hash < at)) return link
    const end = hash < 0 ? link.length : hash
    const query = link
      .slice(at + 1, end)
      .split('&')
      .map((pair) => {
        const equals = pair.indexOf('=')
        if (equals < 0 || equals === pair.length - 1) return pair
        return SIGNING_PARAMS.test(decodeSafely(pair.slice(0, equals)))
          ? `${pair.slice(0, equals)}=${REDACTED}`
          : pair
      })
      .join('&')
    return `${link.slice(0, at + 1)}${query}${link.slice(end)}`
  })
}
