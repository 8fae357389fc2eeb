import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeLossless, encodeLossless, undecodedBytes } from './lossless-utf8'

describe('lossless UTF-8', () => {
  it('gives back any bytes it read', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        const buffer = Buffer.from(bytes)
        expect(encodeLossless(decodeLossless(buffer)).equals(buffer)).toBe(true)
      }),
      { numRuns: 500 },
    )
  })

  it('reads well-formed UTF-8 (astral characters included) as Node does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const buffer = Buffer.from(text, 'utf8')
        expect(decodeLossless(buffer)).toBe(buffer.toString('utf8'))
        expect(undecodedBytes(decodeLossless(buffer))).toBeUndefined()
      }),
      { numRuns: 300 },
    )
  })

  it('keeps each byte of a broken sequence, and says where the first one is', () => {
    const bytes = Buffer.from([0x61, 0xe2, 0x82, 0x62, 0xf0, 0x9f, 0x98, 0x80, 0xed, 0xa0, 0x80])
    const text = decodeLossless(bytes)
    expect(text).toBe('a\udce2\udc82b\u{1f600}\udced\udca0\udc80')
    expect(undecodedBytes(text)).toEqual({ index: 1, byte: 0xe2, count: 5 })
    expect(encodeLossless(`${text}é`)).toEqual(Buffer.concat([bytes, Buffer.from('é')]))
  })
})
