import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  HEADLINE_MAX_CHARS,
  SNIPPET_MAX_CHARS,
  clip,
  countWords,
  deriveHeadline,
  deriveSummary,
  makeSnippet,
  splitSentences,
} from './sentences'

describe('splitSentences', () => {
  it('splits at . ! ? followed by whitespace', () => {
    expect(splitSentences('One. Two! Three? Four')).toEqual(['One.', 'Two!', 'Three?', 'Four'])
  })

  it('keeps decimals, domains and abbreviations inside a sentence', () => {
    expect(splitSentences('Version 2.3 is on example.com, e.g. for Dr. Smith. Next one.')).toEqual([
      'Version 2.3 is on example.com, e.g. for Dr. Smith.',
      'Next one.',
    ])
  })

  it('keeps dotted acronyms and initials inside a sentence', () => {
    expect(splitSentences('The U.S. office of J. Smith opened. It grew.')).toEqual([
      'The U.S. office of J. Smith opened.',
      'It grew.',
    ])
  })

  it('ends a sentence at an ellipsis and carries closing quotes along', () => {
    expect(splitSentences('He said "stop." Then… silence. Done')).toEqual([
      'He said "stop."',
      'Then…',
      'silence.',
      'Done',
    ])
  })

  it('splits at CJK terminators without whitespace', () => {
    expect(splitSentences('これは文です。次の文！最後？')).toEqual([
      'これは文です。',
      '次の文！',
      '最後？',
    ])
  })

  it('treats a blank line as a boundary and a single newline as a space', () => {
    expect(splitSentences('Title line\n\nBody starts\nand continues. End.')).toEqual([
      'Title line',
      'Body starts and continues.',
      'End.',
    ])
  })

  it('returns nothing for blank text', () => {
    expect(splitSentences('  \n ')).toEqual([])
  })
})

describe('deriveHeadline', () => {
  it('is the first sentence without its final period', () => {
    expect(deriveHeadline('Leave is 25 days. Ask HR.')).toBe('Leave is 25 days')
  })

  it('keeps a question mark and an ellipsis', () => {
    expect(deriveHeadline('Why leave? Because.')).toBe('Why leave?')
    expect(deriveHeadline('The actual text content from the document segment...')).toBe(
      'The actual text content from the document segment...',
    )
  })

  it('is clipped at a word boundary when the first sentence is long', () => {
    const headline = deriveHeadline(`${'word '.repeat(80)}end.`) ?? ''
    expect(headline.length).toBeLessThanOrEqual(HEADLINE_MAX_CHARS)
    expect(headline.endsWith('word…')).toBe(true)
  })

  it('is undefined for empty text', () => {
    expect(deriveHeadline('')).toBeUndefined()
  })
})

describe('deriveSummary', () => {
  it('is the second and third sentences', () => {
    expect(deriveSummary('One. Two. Three. Four.')).toBe('Two. Three.')
  })

  it('is the second sentence alone when there are two', () => {
    expect(deriveSummary('One. Two.')).toBe('Two.')
  })

  it('is undefined when the text has one sentence', () => {
    expect(deriveSummary('Only one sentence here')).toBeUndefined()
  })
})

describe('clip and snippets', () => {
  it('leaves short text alone apart from flattening whitespace', () => {
    expect(clip('a\n b\tc', 10)).toBe('a b c')
  })

  it('is the whole text flattened, then cut at a word boundary, whatever the text', () => {
    // clip flattens only the start of a long text: it must not change what comes out.
    const whole = (text: string, max: number): string => {
      const flat = text.replace(/\s+/g, ' ').trim()
      if (flat.length <= max) return flat
      const cut = flat.slice(0, Math.max(1, max - 1))
      const lastSpace = cut.lastIndexOf(' ')
      const body = lastSpace > max / 2 ? cut.slice(0, lastSpace) : cut
      return `${body.replace(/[\s,;:.-]+$/, '')}…`
    }
    const piece = fc.oneof(
      fc.constantFrom(' ', '  ', '\n', '\n\n', '\t', ' \u00a0 ', '    ', ',', '.', '-', '…', 'é'),
      fc.string({ unit: fc.constantFrom('a', 'b', 'Z', '1'), minLength: 1, maxLength: 12 }),
    )
    const text = fc.array(piece, { maxLength: 400 }).map((parts) => parts.join(''))
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 300 }), (sample, max) => {
        expect(clip(sample, max)).toBe(whole(sample, max))
      }),
      { numRuns: 3000 },
    )
  })

  it('never exceeds the bound', () => {
    const snippet = makeSnippet('x'.repeat(1000))
    expect(snippet.length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS)
    expect(snippet.endsWith('…')).toBe(true)
  })
})

describe('countWords', () => {
  it('counts whitespace-separated words', () => {
    expect(countWords('  Product X Advanced  Features ')).toBe(4)
    expect(countWords('')).toBe(0)
  })
})
