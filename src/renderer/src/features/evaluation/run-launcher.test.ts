import { describe, expect, it } from 'vitest'
import { flipped, progressText, runButton, runRequest, sourceNames } from './run-launcher'
import { runPlan } from './run-plan'

describe('flipped', () => {
  it('takes a ticked item out and puts an unticked one in, keeping the rest', () => {
    expect(flipped(['a', 'b', 'c'], 'b')).toEqual(['a', 'c'])
    expect(flipped(['a'], 'z')).toEqual(['a', 'z'])
    expect(flipped(new Set<string>(), 'a')).toEqual(['a'])
  })
})

describe('sourceNames', () => {
  it('names the selected sources, or says the server runs on its defaults', () => {
    expect(sourceNames([{ name: 'HR' }, { name: 'Wiki' }])).toBe('Sources: HR, Wiki')
    expect(sourceNames([])).toBe('Default sources')
  })
})

describe('runButton', () => {
  const plan = runPlan([{ id: 'q1' }, { id: 'q2' }, { id: 'p', profileId: 'bob' }], ['al'], false)

  it('says what the run does when everything is chosen', () => {
    expect(runButton({ set: { queryCount: 3 }, servers: 2, profiles: 1, plan })).toEqual({
      disabled: false,
      title: '3 searches on 2 servers',
    })
    // The set's queries not read yet: each counts once.
    expect(runButton({ set: { queryCount: 1 }, servers: 1, profiles: 1, plan: undefined })).toEqual(
      { disabled: false, title: '1 search on 1 server' },
    )
  })

  it('names the first thing missing, the set’s queries before servers before profiles', () => {
    const title = (queryCount: number, servers: number, profiles: number) =>
      runButton({ set: { queryCount }, servers, profiles, plan })
    expect(title(0, 0, 0)).toEqual({ disabled: true, title: 'The set has no queries' })
    expect(title(3, 0, 0)).toEqual({ disabled: true, title: 'Choose a server' })
    expect(title(3, 1, 0)).toEqual({ disabled: true, title: 'Choose a profile' })
  })

  it('stays off when the plan leaves no search to make', () => {
    const none = runPlan([{ id: 'p', profileId: 'bob' }], ['al'], true)
    expect(runButton({ set: { queryCount: 1 }, servers: 1, profiles: 1, plan: none })).toEqual({
      disabled: true,
      title: '0 searches on 1 server',
    })
  })
})

describe('runRequest', () => {
  it('sends the selection and query ids only when the run is narrowed', () => {
    expect(runRequest('s', 10, ['al'], undefined, undefined)).toEqual({
      setId: 's',
      k: 10,
      profiles: ['al'],
    })
    const narrowed = runPlan([{ id: 'q1' }, { id: 'p', profileId: 'bob' }], ['al'], true)
    expect(runRequest('s', 5, ['al', 'cy'], { kb: ['hr'] }, narrowed)).toEqual({
      setId: 's',
      k: 5,
      profiles: ['al', 'cy'],
      selection: { kb: ['hr'] },
      queryIds: ['q1'],
    })
  })
})

describe('progressText', () => {
  it('counts the queries done, and failed calls only when there are some', () => {
    expect(progressText({ done: 12, total: 31, failures: 0 })).toBe('12 of 31 queries')
    expect(progressText({ done: 12, total: 31, failures: 1 })).toBe(
      '12 of 31 queries · 1 failed call',
    )
    expect(progressText({ done: 0, total: 4, failures: 2 })).toBe('0 of 4 queries · 2 failed calls')
  })
})
