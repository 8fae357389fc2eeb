import { describe, expect, it } from 'vitest'
import type { Citation } from '#shared/model/rag'
import { parseCitedText, uncitedCitations } from './cited-text'

const cite = (n: number): Citation => ({ n, server: 's', hitId: `h${n}` })
const shape = (text: string, citations: Citation[]) =>
  parseCitedText(text, citations).map((p) => (p.kind === 'text' ? p.text : p.n))

describe('parseCitedText', () => {
  it('turns bracketed numbers into citations between text runs', () => {
    expect(shape('VPN needs MFA [1]. Tokens expire [2].', [cite(1), cite(2)])).toEqual([
      'VPN needs MFA ',
      1,
      '. Tokens expire ',
      2,
      '.',
    ])
  })

  it('expands lists and ranges inside one marker', () => {
    expect(shape('See [1, 3] and [2-3]', [cite(1), cite(2), cite(3)])).toEqual([
      'See ',
      1,
      3,
      ' and ',
      2,
      3,
    ])
  })

  it('keeps a marker as text when a number has no citation', () => {
    expect(shape('Founded [1999], see [1] and [4]', [cite(1)])).toEqual([
      'Founded [1999], see ',
      1,
      ' and [4]',
    ])
  })

  it('does not expand an absurd range', () => {
    expect(shape('x [1-400]', [cite(1)])).toEqual(['x [1-400]'])
  })

  it('links the citation object itself', () => {
    const parts = parseCitedText('a [2]', [cite(2)])
    expect(parts[1]).toMatchObject({ kind: 'cite', citation: { hitId: 'h2' } })
  })

  it('lists citations the text never refers to', () => {
    expect(uncitedCitations('only [2]', [cite(1), cite(2)]).map((c) => c.n)).toEqual([1])
  })
})
