import { describe, expect, it } from 'vitest'
import { Fields, Violations, boundValue, joinPath } from './shape'

describe('joinPath', () => {
  it('writes identifiers with dots, indexes in brackets and odd keys quoted', () => {
    expect(joinPath('', 'a')).toBe('a')
    expect(joinPath('a', 2)).toBe('a[2]')
    expect(joinPath('a', 'b-c')).toBe('a["b-c"]')
  })
})

describe('boundValue', () => {
  it('clips long strings and large structures in violations', () => {
    expect((boundValue('x'.repeat(1000)) as string).length).toBeLessThan(310)
    expect(typeof boundValue({ big: 'y'.repeat(1000) })).toBe('string')
    expect(boundValue({ small: 1 })).toEqual({ small: 1 })
  })
})

describe('Fields', () => {
  const read = (obj: Record<string, unknown>) => {
    const out = new Violations()
    return { fields: new Fields(obj, 'r', out), out }
  }

  it('reads typed values without violations', () => {
    const { fields, out } = read({ s: 'x', n: 1.5, b: true, a: ['p', 'q'] })
    expect([
      fields.string('s'),
      fields.number('n'),
      fields.boolean('b'),
      fields.strings('a'),
    ]).toEqual(['x', 1.5, true, ['p', 'q']])
    expect(out.list).toEqual([])
  })

  it('reports absent, null and blank required strings as missing', () => {
    const { fields, out } = read({ n: null, e: '  ' })
    fields.string('absent', { required: true })
    fields.string('n', { required: true })
    fields.string('e', { required: true })
    expect(out.list.map((v) => [v.rule, v.path])).toEqual([
      ['missing_field', 'r.absent'],
      ['missing_field', 'r.n'],
      ['missing_field', 'r.e'],
    ])
  })

  it('accepts null for nullable fields and empty strings when allowed', () => {
    const { fields, out } = read({ n: null, e: '' })
    expect(fields.string('n', { nullable: true })).toBeUndefined()
    expect(fields.string('e', { required: true, allowEmpty: true })).toBe('')
    expect(out.list).toEqual([])
  })

  it('reports each non-string item of a string array and keeps the rest', () => {
    const { fields, out } = read({ a: ['x', 2, 'y'] })
    expect(fields.strings('a')).toEqual(['x', 'y'])
    expect(out.list).toEqual([
      expect.objectContaining({ rule: 'wrong_type', path: 'r.a[1]', value: 2 }),
    ])
  })

  it('rejects NaN-like scores as score_not_number', () => {
    const { fields, out } = read({ s: '0.9' })
    expect(fields.score('s')).toBeUndefined()
    expect(out.list[0]?.rule).toBe('score_not_number')
  })
})
