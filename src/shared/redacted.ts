import { decodeSafely } from './text/decode'

/** What a redacted secret reads as, wherever the console shows or keeps one. */
export const REDACTED = '[redacted]'

/**
 * Whether a link had a secret replaced (a signed link kept without its signature): it no
 * longer opens as it is.
 */
export function isRedactedLink(url: string): boolean {
  return url.includes(REDACTED) || decodeSafely(url).includes(REDACTED)
}
