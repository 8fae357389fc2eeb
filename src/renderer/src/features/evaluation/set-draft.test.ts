import { describe, expect, it } from 'vitest'
import type { GoldenSet } from '#shared/model/evaluation'
import {
  invalidSources,
  judgmentCount,
  nextQueryId,
  phrasesFromText,
  profileOptions,
  relevantCount,
  sourcesFromText,
  sourcesProblem,
  sourcesToText,
  withGrade,
  withNewQuery,
  withoutQuery,
  withPhrasesText,
  withProfile,
  withSourcesText,
} from './set-draft'

const set: GoldenSet = {
  version: 1,
  id: 's',
  name: 'S',
  queries: [
    {
      id: 'q1',
      query: 'vpn',
      judgments: [
        { docKey: 'id:a', grade: 2 },
        { docKey: 'id:b', grade: 0 },
      ],
    },
    { id: 'q3', query: 'pto', judgments: [] },
  ],
}

describe('phrases and sources as text', () => {
  it('takes one phrase a line and drops blank lines', () => {
    expect(phrasesFromText(' remote access \n\n  vpn client\n')).toEqual([
      'remote access',
      'vpn client',
    ])
  })

  it('reads sources back as they are written, a server alone meaning its defaults', () => {
    const sources = { knowledgeSearch: ['handbook', 'it-kb'], productCatalog: [] }
    expect(sourcesFromText(sourcesToText(sources))).toEqual({ sources })
    expect(sourcesFromText('  \n')).toEqual({ sources: undefined })
  })

  it('says which line is wrong when a server id has spaces', () => {
    expect(sourcesFromText('knowledgeSearch: handbook\nmy server: x')).toEqual({
      error: expect.stringContaining('Line 2') as string,
    })
  })
})

describe('editing a set', () => {
  it('changes one grade and removes one judgment, leaving the rest', () => {
    const changed = withGrade(set, 'q1', 'id:b', 3)
    expect(changed.queries[0]!.judgments).toEqual([
      { docKey: 'id:a', grade: 2 },
      { docKey: 'id:b', grade: 3 },
    ])
    expect(withGrade(changed, 'q1', 'id:a', null).queries[0]!.judgments).toEqual([
      { docKey: 'id:b', grade: 3 },
    ])
    expect(set.queries[0]!.judgments[1]!.grade).toBe(0)
  })

  it('gives a new query an id the set does not use yet', () => {
    expect(nextQueryId(set)).toBe('q4')
    const { set: grown, queryId } = withNewQuery(withoutQuery(set, 'q1'))
    expect(queryId).toBe('q2')
    expect(grown.queries.map((q) => q.id)).toEqual(['q3', 'q2'])
  })

  it('counts only grades above 0 as relevant', () => {
    expect(relevantCount(set.queries[0]!)).toBe(1)
  })
})

describe('typing into a query', () => {
  it('keeps the first four phrases typed and drops the field when none is left', () => {
    const typed = withPhrasesText(set, 'q1', 'a\n\nb\nc\nd\ne')
    expect(typed.queries[0]!.phrases).toEqual(['a', 'b', 'c', 'd'])
    expect(withPhrasesText(typed, 'q1', ' \n')).toEqual(set)
    expect(typed.queries[1]).toBe(set.queries[1])
  })

  it('takes sources that read, keeps the set as it is while they do not, and drops empty ones', () => {
    const typed = withSourcesText(set, 'q3', 'knowledgeSearch: handbook')
    expect(typed.queries[1]!.sources).toEqual({ knowledgeSearch: ['handbook'] })
    expect(withSourcesText(typed, 'q3', 'my server: x')).toBe(typed)
    expect(withSourcesText(typed, 'q3', '')).toEqual(set)
  })

  it('names the query whose typed sources cannot be read, and only sources texts', () => {
    expect(sourcesProblem({ 'q1:phrases': 'my server: x', 'q3:sources': 'ok: a' })).toBeUndefined()
    expect(sourcesProblem({ 'q1:sources': 'ok', 'q3:sources': 'my server: x' })).toMatch(
      /^q3: Line 1: /,
    )
    expect(invalidSources('my server: x')).toBe(true)
    expect(invalidSources('ok: a')).toBeUndefined()
    expect(invalidSources(undefined)).toBeUndefined()
  })

  it('sets or clears the acting profile', () => {
    const acting = withProfile(set, 'q1', 'alice')
    expect(acting.queries[0]!.profileId).toBe('alice')
    expect(withProfile(acting, 'q1', '')).toEqual(set)
  })

  it('offers every profile, and the query’s own when no profile has its id', () => {
    const profiles = [{ id: 'alice', name: 'Alice' }]
    expect(profileOptions(profiles, 'alice')).toEqual([
      { value: '', label: 'Every profile of the run' },
      { value: 'alice', label: 'Alice' },
    ])
    expect(profileOptions(profiles, 'gone').at(-1)).toEqual({
      value: 'gone',
      label: 'gone (no such profile)',
    })
  })

  it('counts the judgments of every query', () => {
    expect(judgmentCount(set)).toBe(2)
    expect(judgmentCount(withoutQuery(set, 'q1'))).toBe(0)
  })
})
