import { describe, expect, it } from 'vitest'
import type { EvalRunSummary, GoldenSetSummary } from '#shared/model/evaluation'
import { offersDemo, runsBadge, shownSet } from './evaluation-panel'

const set = (id: string): GoldenSetSummary =>
  ({ id, name: id, queryCount: 1, judgmentCount: 1 }) as GoldenSetSummary
const run = (id: string, status: EvalRunSummary['status']): EvalRunSummary =>
  ({ id, status }) as EvalRunSummary

describe('shownSet', () => {
  const sets = [set('a'), set('b')]

  it('shows the chosen set, and the first while none is chosen or the chosen one is gone', () => {
    expect(shownSet(sets, 'b')?.id).toBe('b')
    expect(shownSet(sets, null)?.id).toBe('a')
    expect(shownSet(sets, 'deleted')?.id).toBe('a')
  })

  it('shows none while the sets load or there are none', () => {
    expect(shownSet(undefined, 'a')).toBeUndefined()
    expect(shownSet([], 'a')).toBeUndefined()
  })
})

describe('offersDemo', () => {
  it('offers the demo set on the embedded registry only, while it is not added', () => {
    expect(offersDemo({ kind: 'embedded' }, [set('a')])).toBe(true)
    expect(offersDemo({ kind: 'embedded' }, undefined)).toBe(true)
    expect(offersDemo({ kind: 'embedded' }, [set('a'), set('demo')])).toBe(false)
    expect(offersDemo({ kind: 'file' }, [])).toBe(false)
    expect(offersDemo(undefined, [])).toBe(false)
  })
})

describe('runsBadge', () => {
  it('says a run is running before it counts the runs', () => {
    expect(runsBadge([run('1', 'done'), run('2', 'running')])).toEqual({
      tone: 'info',
      text: 'running',
    })
    expect(runsBadge([run('1', 'done'), run('2', 'failed')])).toEqual({
      tone: 'neutral',
      text: '2',
    })
  })

  it('shows nothing without runs', () => {
    expect(runsBadge([])).toBeNull()
    expect(runsBadge(undefined)).toBeNull()
  })
})
