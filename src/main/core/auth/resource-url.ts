import { plaintextSecretReason } from '#shared/config/plaintext-secrets'
import { decodeSafely } from '#shared/text/decode'

/** `name=value` pairs of a URL's query as written, values undecoded (`${…}` stays visible). */
function writtenQuery(url: string): [string, string][] {
  const query = url.split('#')[0]!.split('?')[1]
  return (query ? query.split('&') : []).map((pair) => {
    const eq = pair.indexOf('=')
    return eq < 0 ? [decodeSafely(pair), ''] : [decodeSafely(pair.slice(0, eq)), pair.slice(eq + 1)]
  })
}

/**
 * The server's URL as the OAuth flow may show it to others. The SDK derives from it the
 * resource indicator it checks and sends, the path-aware protected-resource metadata URL and,
 * for servers of the 2025-03-26 spec, the authorization server itself. The URL requests go to
 * may carry credentials meant for the server alone: a query parameter written as a reference
 * (`?key=${keychain:apiKey}`) or looking like a secret, a user name and password. Those are
 * left out here; so is a fragment.
 */
export function publicServerUrl(written: string | undefined, resolved: string): string {
  const url = new URL(resolved)
  url.username = ''
  url.password = ''
  url.hash = ''
  const referenced = new Set(
    writtenQuery(written ?? '')
      .filter(([, value]) => value.includes('${'))
      .map(([name]) => name),
  )
  const secret = [...url.searchParams]
    .filter(([name, value]) => referenced.has(name) || plaintextSecretReason(name, value))
    .map(([name]) => name)
  for (const name of secret) url.searchParams.delete(name)
  return url.href
}
