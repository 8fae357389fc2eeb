import { Text } from '@codemirror/state'
import { describe, expect, it } from 'vitest'
import { diagnosticOffsets, tokenSpan } from './diagnostic-range'

describe('diagnostic spans', () => {
  it('underlines a whole quoted key', () => {
    expect(tokenSpan('  "transport": "htp",', 3)).toEqual({ start: 2, end: 13 })
  })

  it('underlines a number', () => {
    expect(tokenSpan('  "timeoutMs": 10,', 16)).toEqual({ start: 15, end: 17 })
  })

  it('underlines one character at a stray symbol', () => {
    expect(tokenSpan('  }}', 4)).toEqual({ start: 3, end: 4 })
  })

  it('is empty at the end of a line, never beyond it', () => {
    expect(tokenSpan('{', 5)).toEqual({ start: 1, end: 1 })
  })

  it('maps line and column to document offsets', () => {
    const doc = Text.of(['{', '  "a": { "url": 3 }', '}'])
    expect(diagnosticOffsets(doc, { line: 2, column: 10 })).toEqual({ from: 11, to: 16 })
  })

  it('clamps a line past the end of the document to its last line', () => {
    const doc = Text.of(['{', '}'])
    expect(diagnosticOffsets(doc, { line: 9, column: 1 })).toEqual({ from: 2, to: 3 })
  })
})
