import type { Hit } from './rag'

/** Query parameters that differ between two signed links to the same document. */
const VOLATILE_PARAMS =
  /^(token|sig|signature|exp|expires|expiry|x-amz-[a-z-]+|x-goog-[a-z-]+|se|sv|st|sp|utm_[a-z]+)$/i

/** Keys worked out before, per hit object (hits are not changed once parsed). */
const known = new WeakMap<object, string>()

/**
 * The identity of a hit across providers: its URL without fragment and volatile signing
 * parameters (so two signed links to one document collapse), else its id. The merge in main and
 * the overlap shown by the renderer both use it. Parsing a URL costs microseconds, so a hit's
 * key is worked out once: main does it as each server's reply comes in, not in the final merge.
 */
export function dedupeKey(hit: Pick<Hit, 'id' | 'uri'>): string {
  let key = known.get(hit)
  if (key === undefined) known.set(hit, (key = identityOf(hit)))
  return key
}

function identityOf(hit: Pick<Hit, 'id' | 'uri'>): string {
  if (hit.uri) {
    try {
      const url = new URL(hit.uri)
      url.hash = ''
      // Without a query there is nothing to drop or sort (a bare `?` still goes, as before).
      if (hit.uri.includes('?')) {
        // One new query, not one per deleted parameter (each change re-serialises the URL).
        const kept = [...url.searchParams].filter(([key]) => !VOLATILE_PARAMS.test(key))
        kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        url.search = new URLSearchParams(kept).toString()
      }
      return `uri:${url.href}`
    } catch {
      return `uri:${hit.uri}`
    }
  }
  return `id:${hit.id}`
}
