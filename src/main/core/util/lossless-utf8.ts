import { isUtf8 } from 'node:buffer'

/**
 * UTF-8 that keeps the bytes it cannot decode, so a file with a stray Latin-1 byte is written
 * back exactly as it was wherever an edit did not touch it (instead of as U+FFFD). Each byte
 * that is not part of a well-formed UTF-8 sequence becomes a lone low surrogate U+DC80–U+DCFF
 * (as Python's `surrogateescape`), which well-formed UTF-8 never decodes to, and
 * {@link encodeLossless} turns it back into that byte.
 */

const ESCAPE = 0xdc00

/** Length of the well-formed UTF-8 sequence starting at `i`, or 0 when there is none. */
function sequenceAt(bytes: Uint8Array, i: number): number {
  const lead = bytes[i]!
  if (lead < 0x80) return 1
  const inRange = (at: number, low = 0x80, high = 0xbf): boolean =>
    at < bytes.length && bytes[at]! >= low && bytes[at]! <= high
  if (lead >= 0xc2 && lead <= 0xdf) return inRange(i + 1) ? 2 : 0
  if (lead >= 0xe0 && lead <= 0xef) {
    const low = lead === 0xe0 ? 0xa0 : 0x80
    const high = lead === 0xed ? 0x9f : 0xbf
    return inRange(i + 1, low, high) && inRange(i + 2) ? 3 : 0
  }
  if (lead >= 0xf0 && lead <= 0xf4) {
    const low = lead === 0xf0 ? 0x90 : 0x80
    const high = lead === 0xf4 ? 0x8f : 0xbf
    return inRange(i + 1, low, high) && inRange(i + 2) && inRange(i + 3) ? 4 : 0
  }
  return 0
}

/** Decodes UTF-8, turning every byte that is not part of a well-formed sequence into U+DCxx. */
export function decodeLossless(bytes: Buffer): string {
  if (isUtf8(bytes)) return bytes.toString('utf8')
  let out = ''
  let run = 0
  for (let i = 0; i < bytes.length;) {
    const length = sequenceAt(bytes, i)
    if (length > 0) {
      i += length
      continue
    }
    out += bytes.toString('utf8', run, i) + String.fromCharCode(ESCAPE + bytes[i]!)
    i++
    run = i
  }
  return out + bytes.toString('utf8', run)
}

/** A code unit in U+DC80–U+DCFF: a kept byte, unless it is the low half of a surrogate pair. */
const MAYBE_ESCAPED = /[\udc80-\udcff]/

const isEscape = (text: string, i: number): boolean => {
  const unit = text.charCodeAt(i)
  if (unit < 0xdc80 || unit > 0xdcff) return false
  const before = i > 0 ? text.charCodeAt(i - 1) : 0
  return before < 0xd800 || before > 0xdbff
}

/** Encodes text as UTF-8, writing each U+DC80–U+DCFF of {@link decodeLossless} as its byte. */
export function encodeLossless(text: string): Buffer {
  if (!MAYBE_ESCAPED.test(text)) return Buffer.from(text, 'utf8')
  const parts: Buffer[] = []
  let run = 0
  for (let i = 0; i < text.length; i++) {
    if (!isEscape(text, i)) continue
    parts.push(Buffer.from(text.slice(run, i), 'utf8'), Buffer.of(text.charCodeAt(i) - ESCAPE))
    run = i + 1
  }
  if (parts.length === 0) return Buffer.from(text, 'utf8')
  parts.push(Buffer.from(text.slice(run), 'utf8'))
  return Buffer.concat(parts)
}

/** Where the first byte {@link decodeLossless} kept undecoded is, and how many there are. */
export function undecodedBytes(
  text: string,
): { index: number; byte: number; count: number } | undefined {
  if (!MAYBE_ESCAPED.test(text)) return undefined
  let first: { index: number; byte: number } | undefined
  let count = 0
  for (let i = 0; i < text.length; i++) {
    if (!isEscape(text, i)) continue
    first ??= { index: i, byte: text.charCodeAt(i) - ESCAPE }
    count++
  }
  return first && { ...first, count }
}
