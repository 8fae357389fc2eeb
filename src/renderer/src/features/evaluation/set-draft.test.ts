import { describe, expect, it } from 'vitest'
import type { GoldenSet } from '../../../../shared/model/evaluation'
import {
  nextQueryId,
  phrasesFromText,
  relevantCount,
  sourcesFromText,
  sourcesToText,
  withGrade,
  withNewQuery,
  withoutQuery,
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
