import { describe, expect, it } from 'vitest'
import type { AccessCheck, AccessResult } from '#shared/model/rag'
import type { Profile } from '#shared/model/user'
import { earlierThan, freshLinkOf, hopTone, sameIdentity } from './verdict-card'

const ana = { userId: 'ana', sessionTags: ['emea'], groups: [] }
const check = (extra: Partial<AccessCheck> = {}): AccessCheck => ({
  user: ana,
  verdict: 'ok',
  explanation: 'it opens',
  checkedAt: 0,
  cached: false,
  ...extra,
})
const profile = (extra: Partial<Profile> = {}): Profile => ({
  id: 'p1',
  name: 'Ana',
  ...ana,
  ...extra,
})

describe('whom the verdict is for', () => {
  it('is the same identity when id, tags and human uid match, whatever the groups', () => {
    expect(sameIdentity(ana, { ...ana, groups: ['x'] })).toBe(true)
    expect(sameIdentity(ana, { ...ana, humanUid: '' })).toBe(true)
    expect(sameIdentity(ana, { ...ana, userId: 'bob' })).toBe(false)
    expect(sameIdentity(ana, { ...ana, sessionTags: ['emea', 'hr'] })).toBe(false)
    expect(sameIdentity(ana, { ...ana, humanUid: 'u-1' })).toBe(false)
  })

  it('marks the verdict as earlier only when "Check as" is someone else', () => {
    expect(earlierThan(check(), undefined)).toBeUndefined()
    expect(earlierThan(check(), profile())).toBeUndefined()
    const carol = profile({ id: 'p2', name: 'Carol', userId: 'carol' })
    expect(earlierThan(check(), carol)).toBe(carol)
  })
})

describe('the fresh link', () => {
  const access = (refreshedUrl?: string): AccessResult => ({
    server: 'kb',
    segmentId: 'doc#0',
    checked: true,
    hasAccess: true,
    violations: [],
    ...(refreshedUrl ? { refreshedUrl } : {}),
  })

  it('is the link the server issued when it differs from the one checked', () => {
    expect(freshLinkOf(check({ url: 'https://d/old', access: access('https://d/new') }))).toBe(
      'https://d/new',
    )
    expect(freshLinkOf(check({ url: 'https://d/same', access: access('https://d/same') }))).toBe(
      undefined,
    )
    expect(freshLinkOf(check({ url: 'https://d/x', access: access() }))).toBeUndefined()
    expect(freshLinkOf(check())).toBeUndefined()
  })
})

describe('an HTTP hop', () => {
  it('reads as success, redirect, refused for now, or failed', () => {
    expect([200, 204, 301, 302, 401, 403, 429, 404, 500].map(hopTone)).toEqual([
      'ok',
      'ok',
      'info',
      'info',
      'warn',
      'warn',
      'warn',
      'bad',
      'bad',
    ])
  })
})
