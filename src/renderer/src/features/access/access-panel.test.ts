import { describe, expect, it } from 'vitest'
import type { AccessCheck } from '#shared/model/rag'
import {
  accessCheckRequest,
  batchOption,
  currentBatch,
  shownCheck,
  shownFromBatch,
  type Shown,
} from './access-panel'
import type { BatchSpec, HistoryEntry } from './queries'

const check = (extra: Partial<AccessCheck> = {}): AccessCheck => ({
  user: { userId: 'ana', sessionTags: [], groups: [] },
  verdict: 'ok',
  explanation: 'it opens',
  checkedAt: 0,
  cached: false,
  ...extra,
})
const entry = (id: number): HistoryEntry => ({
  id,
  target: { url: `https://d/${id}` },
  check: check(),
})
const batch = (batchId: string, startedAt = 0): BatchSpec => ({
  batchId,
  label: `links ${batchId}`,
  targets: [{ url: 'https://d/x' }],
  startedAt,
})

describe('a check request', () => {
  it('names whom to check as only when a profile was chosen', () => {
    const target = { url: 'https://d/x' }
    expect(accessCheckRequest({ target })).toEqual({ target, refresh: undefined })
    expect(accessCheckRequest({ target, profileId: '' })).not.toHaveProperty('profileId')
    expect(accessCheckRequest({ target, refresh: true, profileId: 'carol' })).toEqual({
      target,
      refresh: true,
      profileId: 'carol',
    })
  })
})

describe('the verdict shown', () => {
  it('is the check picked, else the newest of the history, else none', () => {
    const picked: Shown = { target: { url: 'https://d/p' }, check: check() }
    expect(shownCheck(picked, [entry(2), entry(1)])).toBe(picked)
    expect(shownCheck(null, [entry(2), entry(1)])?.id).toBe(2)
    expect(shownCheck(null, [])).toBeNull()
  })

  it('from a batch keeps the target asked for, else names the check by its parts', () => {
    const found = check({ server: 'kb', segmentId: 'doc#0', url: 'https://d/doc' })
    const asked = { citation: { server: 'kb', hitId: 'doc#0', uri: 'https://d/doc' } }
    expect(shownFromBatch(found, asked, 'carol')).toEqual({
      target: asked,
      check: found,
      profileId: 'carol',
    })
    expect(shownFromBatch(found, undefined, undefined).target).toEqual({
      server: 'kb',
      segmentId: 'doc#0',
      url: 'https://d/doc',
    })
  })
})

describe('the batch open', () => {
  it('is the one picked, else the newest when none or a gone one is picked', () => {
    const batches = [batch('b2'), batch('b1')]
    expect(currentBatch(batches, 'b1')?.batchId).toBe('b1')
    expect(currentBatch(batches, null)?.batchId).toBe('b2')
    expect(currentBatch(batches, 'gone')?.batchId).toBe('b2')
    expect(currentBatch([], null)).toBeUndefined()
  })

  it('is picked by when it started and what it checks', () => {
    const option = batchOption(batch('b1', Date.UTC(2026, 0, 2, 3, 4, 5)))
    expect(option.value).toBe('b1')
    expect(option.label).toMatch(/^\S.* · links b1$/)
  })
})
