/** What a redacted secret reads as, wherever the console shows or keeps one. */
export const REDACTED = '[redacted]'

/**
 * Whether a link had a secret replaced (a signed link kept without its signature): it no
 * longer opens as it is.
 */
export function isRedactedLink(url: string): boolean {
  if (url.includes(REDACTED)) return true
  try {
    return decodeURIComponent(url).includes(REDACTED)
  } catch {
    return false
  }
}
