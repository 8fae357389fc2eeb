import { describe, expect, it } from 'vitest'
import { runPlan } from './run-plan'

const queries = [
  { id: 'q1' },
  { id: 'q2' },
  { id: 'q3' },
  { id: 'deals-alice', profileId: 'alice' },
  { id: 'deals-bob', profileId: 'bob' },
  { id: 'vpn-dan', profileId: 'dan' },
  { id: 'runbook-dan', profileId: 'dan' },
]

describe('runPlan', () => {
  it('says which queries run as whom: free ones as the ticked profiles, pinned ones as theirs', () => {
    expect(runPlan(queries, ['alice'], false)).toEqual({
      free: 3,
      pinned: [
        { profileId: 'alice', queries: 1, ticked: true },
        { profileId: 'bob', queries: 1, ticked: false },
        { profileId: 'dan', queries: 2, ticked: false },
      ],
      searches: 3 + 1 + 1 + 2,
      queryIds: undefined,
    })
  })

  it('runs only as the ticked profiles when asked: queries pinned to others are left out', () => {
    const plan = runPlan(queries, ['alice', 'carol'], true)
    expect(plan.searches).toBe(3 * 2 + 1)
    expect(plan.queryIds).toEqual(['q1', 'q2', 'q3', 'deals-alice'])
    // Nothing pinned elsewhere: every query, no list to send.
    expect(runPlan(queries.slice(0, 4), ['alice'], true).queryIds).toBeUndefined()
  })
})
