import { describe, expect, it } from 'vitest'
import type { MergedHit } from '#shared/model/operations'
import { testHit } from '#test/support/model/hits'
import { fusedColumn, RAW_SCORE } from './score-columns'

describe('the score column', () => {
  it("shows the server's raw score by default", () => {
    expect(RAW_SCORE.label).toBe('Score')
    expect(RAW_SCORE.text(testHit('wiki', 'h1', { score: 0.81234 }))).toBe('0.812')
    expect(RAW_SCORE.text(testHit('wiki', 'h1'))).toBe('–')
  })

  it('shows the fused score of a merged hit to four places, a dash for a plain hit', () => {
    const merged: MergedHit = {
      ...testHit('wiki', 'h1', { score: 0.9 }),
      fusedScore: 0.032787,
      rank: 1,
      foundIn: [],
    }
    const column = fusedColumn('rrf')
    expect(column.label).toBe('Fused')
    expect(column.text(merged)).toBe('0.0328')
    expect(column.text(testHit('wiki', 'h1', { score: 0.9 }))).toBe('–')
  })

  it('says in its tooltip how the chosen fusion scores', () => {
    expect(fusedColumn('rrf').title).toMatch(/reciprocal rank fusion: Σ 1 \/ \(60 \+ rank\)/)
    expect(fusedColumn('score').title).toMatch(/best raw score/)
    expect(fusedColumn('minmax').title).toMatch(/scaled per server/)
  })
})
