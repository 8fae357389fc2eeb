import { describe, expect, it } from 'vitest'
import type { MergedHit } from '#shared/model/operations'
import type { Violation } from '#shared/model/rag'
import { testHit, testPart } from '#test/support/model/hits'
import { hitKey } from './hit-key'
import {
  inspectedHit,
  replyOf,
  replyViolations,
  runBlockedReason,
  takingPart,
} from './search-panel'
import type { SearchRun } from './search-run'
import type { ServerSources } from './sources'

const a1 = testHit('a', '1')
const b1 = testHit('b', '1')
const run: SearchRun = {
  searchId: 's1',
  draft: { query: 'vpn', phrases: [], topK: 10, fusion: 'rrf' },
  expected: ['a', 'b'],
  startedAt: 0,
  phase: 'done',
  servers: [testPart('a', [a1]), testPart('b', [b1])],
  cancelling: false,
}
const mergedA1: MergedHit = { ...a1, fusedScore: 0.03, rank: 1, foundIn: [] }

describe('the servers a search runs on', () => {
  const sources = (server: string, selected: number, total: number): ServerSources => ({
    server,
    selected: Array.from({ length: selected }, (_, i) => ({ id: `s${i}`, name: `S${i}` })),
    total,
  })
  const servers = [sources('a', 1, 2), sources('b', 0, 2), sources('c', 0, 0), sources('d', 2, 2)]

  it('are those that take part, less the ones left out of this search', () => {
    expect(takingPart(servers, new Set())).toEqual(['a', 'c', 'd'])
    expect(takingPart(servers, new Set(['a', 'b']))).toEqual(['c', 'd'])
  })

  it('keep Run waiting, with the reason, only once the sources are known and none is left', () => {
    expect(runBlockedReason(true, [])).toBe('No source is selected: turn some on in Servers')
    expect(runBlockedReason(false, [])).toBeUndefined()
    expect(runBlockedReason(true, ['a'])).toBeUndefined()
  })
})

describe('the inspected hit', () => {
  it('is the merged copy when the merged list has it, else the server’s own', () => {
    expect(inspectedHit(hitKey(a1), run, [mergedA1])).toBe(mergedA1)
    expect(inspectedHit(hitKey(a1), run, undefined)).toBe(a1)
    expect(inspectedHit(hitKey(b1), run, [mergedA1])).toBe(b1)
  })

  it('is none when nothing is inspected, no search ran, or the run does not hold it', () => {
    expect(inspectedHit(null, run, [mergedA1])).toBeNull()
    expect(inspectedHit(hitKey(a1), null, undefined)).toBeNull()
    expect(inspectedHit(hitKey(testHit('c', '1')), run, [mergedA1])).toBeNull()
  })
})

describe('the reply that carried the hit', () => {
  const violation = (path: string): Violation => ({ rule: 'wrong_type', path, message: 'bad' })

  it('is its server’s part of the run', () => {
    expect(replyOf(run, b1)?.server).toBe('b')
    expect(replyOf(run, null)).toBeUndefined()
    expect(replyOf(null, a1)).toBeUndefined()
  })

  it('adds the violations that are about no hit of the reply', () => {
    const onHit = testHit('a', '2', { violations: [violation('segments[0].score')] })
    const reply = testPart('a', [onHit], {
      violations: [violation('segments[0].score'), violation('total'), violation('')],
    })
    expect(replyViolations(reply).map((v) => v.path)).toEqual(['total', ''])
    expect(replyViolations(undefined)).toEqual([])
  })
})
