import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LineReader, type DroppedLine } from './line-reader'

/**
 * The stdio reader under random input: whatever bytes a server writes, cut into chunks anywhere
 * (inside a line end, inside a UTF-8 character), the reader gives exactly the lines a plain
 * split gives, keeps none longer than its limit, and reports each dropped line with its size
 * and its real first and last bytes. Bounded: 300 streams per property.
 */

const LIMIT = 64

/** Lines of random bytes (no line end inside), some short, some over the limit. */
const line = fc.oneof(
  fc.uint8Array({ maxLength: 40 }),
  fc.uint8Array({ minLength: LIMIT - 2, maxLength: LIMIT + 2 }),
  fc.uint8Array({ minLength: 100, maxLength: 600 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }).map((text) => new Uint8Array(Buffer.from(text))),
)
const stream = fc.record({
  lines: fc.array(
    line.map((bytes) => Buffer.from(bytes.filter((b) => b !== 10))),
    { maxLength: 12 },
  ),
  crlf: fc.array(fc.boolean(), { maxLength: 12 }),
  lastEnds: fc.boolean(),
  cuts: fc.array(fc.nat(), { maxLength: 30 }),
})

function chunked(bytes: Buffer, cuts: number[]): Buffer[] {
  const at = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b)
  const chunks: Buffer[] = []
  let start = 0
  for (const cut of [...at, bytes.length]) {
    if (cut > start) chunks.push(bytes.subarray(start, cut))
    start = Math.max(start, cut)
  }
  return chunks
}

describe('stdio line reader under random chunking', () => {
  it('gives the lines a plain split gives, and reports each over-long one', () => {
    fc.assert(
      fc.property(stream, ({ lines, crlf, lastEnds, cuts }) => {
        const ended = lines.map((bytes, i) => {
          const end = i < lines.length - 1 || lastEnds ? (crlf[i] ? '\r\n' : '\n') : ''
          return Buffer.concat([bytes, Buffer.from(end)])
        })
        const whole = Buffer.concat(ended)
        const kept: string[] = []
        const dropped: DroppedLine[] = []
        const reader = new LineReader({
          maxBytes: LIMIT,
          onLine: (text) => kept.push(text),
          onDropped: (line) => dropped.push(line),
        })
        for (const chunk of chunked(whole, cuts)) reader.push(chunk)
        reader.end()

        // What the reader holds of each line: its bytes and the `\r` of a `\r\n`.
        const held = lines
          .map((bytes, i) => {
            const crlfEnd = crlf[i] === true && (i < lines.length - 1 || lastEnds)
            return crlfEnd ? Buffer.concat([bytes, Buffer.from('\r')]) : bytes
          })
          .filter((raw) => raw.length > 0)
        const text = (raw: Buffer): string =>
          (raw.at(-1) === 13 ? raw.subarray(0, -1) : raw).toString('utf8')
        expect(kept).toEqual(held.filter((raw) => raw.length <= LIMIT).map(text))
        const over = held.filter((raw) => raw.length > LIMIT)
        expect(dropped.map((d) => d.bytes)).toEqual(over.map((raw) => raw.length))
        for (const [i, d] of dropped.entries()) {
          const raw = over[i]!
          expect(d.why).toBe('oversize')
          expect(d.head).toBe(raw.subarray(0, 256).toString('utf8'))
          expect(d.tail).toBe(raw.subarray(Math.max(0, raw.length - 256)).toString('utf8'))
        }
      }),
      { numRuns: 300 },
    )
  })

  it('drops a discarded line to its end and reads the next one whole', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 1, maxLength: 500 }),
        fc.uint8Array({ maxLength: 50 }),
        fc.nat(),
        fc.array(fc.nat(), { maxLength: 20 }),
        (first, second, at, cuts) => {
          const a = Buffer.from(first.filter((b) => b !== 10 && b !== 13))
          const b = Buffer.from(second.filter((b) => b !== 10 && b !== 13))
          fc.pre(a.length > 0)
          const whole = Buffer.concat([a, Buffer.from('\n'), b, Buffer.from('\n')])
          const kept: string[] = []
          const dropped: DroppedLine[] = []
          const reader = new LineReader({
            maxBytes: 1 << 20,
            onLine: (text) => kept.push(text),
            onDropped: (line) => dropped.push(line),
          })
          const split = 1 + (at % a.length)
          reader.push(whole.subarray(0, split))
          reader.discard()
          for (const chunk of chunked(whole.subarray(split), cuts)) reader.push(chunk)
          reader.end()
          expect(dropped).toEqual([expect.objectContaining({ why: 'discarded', bytes: a.length })])
          expect(dropped[0]!.tail).toBe(a.subarray(Math.max(0, a.length - 256)).toString('utf8'))
          expect(kept).toEqual(b.length > 0 ? [b.toString('utf8')] : [])
        },
      ),
      { numRuns: 300 },
    )
  })
})
