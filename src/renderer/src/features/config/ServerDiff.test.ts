import { describe, expect, it } from 'vitest'
import { describeChange, diffCounts } from './ServerDiff'

describe('describeChange', () => {
  it('says old → new, set, removed, or only that a hidden value changed', () => {
    expect(describeChange({ path: 'timeoutMs', before: '10000', after: '60000' })).toBe(
      '10000 → 60000',
    )
    expect(describeChange({ path: 'description', after: '"KB"' })).toBe('set to "KB"')
    expect(describeChange({ path: 'description', before: '"KB"' })).toBe('removed (was "KB")')
    expect(describeChange({ path: 'headers.A', before: '"••••••"', after: '"••••••"' })).toBe(
      'changed (value hidden)',
    )
  })
})

describe('diffCounts', () => {
  it('names the fields of a single changed server', () => {
    const diff = { added: [], removed: [], changed: ['kb'], unchanged: ['x'] }
    expect(diffCounts(diff)).toBe('1 changed')
    const fields = { kb: [{ path: 'timeoutMs', before: '1', after: '2' }] }
    expect(diffCounts({ ...diff, fields })).toBe('1 changed (kb: timeoutMs)')
    expect(diffCounts({ ...diff, added: ['n'], changed: ['kb', 'z'], fields })).toBe(
      '1 added, 2 changed',
    )
  })
})
