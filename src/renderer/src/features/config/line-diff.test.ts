import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { diffLines, diffStats, hunks, sideBySide, splitLines, type DiffOp } from './line-diff'

const rebuild = (ops: DiffOp[], side: 'old' | 'new'): string[] =>
  ops
    .filter((op) => op.kind === 'equal' || op.kind === (side === 'old' ? 'del' : 'add'))
    .map((op) => op.text)

describe('diffLines', () => {
  it('reports an inserted line and nothing else', () => {
    const ops = diffLines('a\nb\nc\n', 'a\nb\nx\nc\n')
    expect(ops.filter((op) => op.kind !== 'equal')).toEqual([{ kind: 'add', newNo: 3, text: 'x' }])
  })

  it('reports a changed line as one deletion and one addition', () => {
    const ops = diffLines('a\nb\nc', 'a\nB\nc')
    expect(diffStats(ops)).toEqual({ added: 1, removed: 1 })
  })

  it('always rebuilds both texts from its output', () => {
    const lines = fc.array(fc.constantFrom('a', 'b', 'c', '{', '}', ''), { maxLength: 30 })
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        const ops = diffLines(a.join('\n'), b.join('\n'))
        expect(rebuild(ops, 'old')).toEqual(splitLines(a.join('\n')))
        expect(rebuild(ops, 'new')).toEqual(splitLines(b.join('\n')))
      }),
    )
  })

  it('finds a minimal edit for a single insertion in a long file', () => {
    const before = Array.from({ length: 500 }, (_, i) => `line ${i}`)
    const after = [...before.slice(0, 250), 'inserted', ...before.slice(250)]
    expect(diffStats(diffLines(before.join('\n'), after.join('\n')))).toEqual({
      added: 1,
      removed: 0,
    })
  })
  it('past its edit budget shows the middle replaced, keeping the lines both begin and end with', () => {
    const lines = (prefix: string): string[] => Array.from({ length: 2500 }, (_, i) => prefix + i)
    const ops = diffLines(
      ['head', ...lines('old '), 'tail'].join('\n'),
      ['head', ...lines('new '), 'tail'].join('\n'),
    )
    expect(ops[0]).toEqual({ kind: 'equal', oldNo: 1, newNo: 1, text: 'head' })
    expect(ops.at(-1)).toEqual({ kind: 'equal', oldNo: 2502, newNo: 2502, text: 'tail' })
    expect(ops.slice(1, 2501).every((op) => op.kind === 'del')).toBe(true)
    expect(ops.slice(2501, 5001).every((op) => op.kind === 'add')).toBe(true)
  })
})

describe('hunks', () => {
  it('keeps three lines of context and merges nearby changes', () => {
    const before = Array.from({ length: 20 }, (_, i) => `${i}`)
    const after = before.map((line, i) => (i === 5 || i === 8 ? `${line}!` : line))
    const result = hunks(diffLines(before.join('\n'), after.join('\n')))
    expect(result).toHaveLength(1)
    expect(result[0]!.oldStart).toBe(3)
  })
})

describe('sideBySide', () => {
  it('puts a replaced line next to its replacement', () => {
    const rows = sideBySide(diffLines('a\nb\nc', 'a\nB\nc'))
    expect(rows[1]).toEqual({
      left: { no: 2, text: 'b', changed: true },
      right: { no: 2, text: 'B', changed: true },
    })
  })
})
