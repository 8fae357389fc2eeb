import { describe, expect, it } from 'vitest'
import { emptyDraft, parseDraft, slugify, splitList } from './profile-form'

describe('profile form', () => {
  it('splits comma-separated tags and drops empty ones', () => {
    expect(splitList(' eu, beta,, ')).toEqual(['eu', 'beta'])
  })

  it('derives an id the schema accepts from any name', () => {
    expect(slugify('Support — EU team')).toBe('support-eu-team')
    expect(slugify('---')).toBe('profile')
  })

  it('builds the profile main will accept', () => {
    const result = parseDraft({
      ...emptyDraft(),
      name: 'Alice',
      userId: 'alice@example.com',
      sessionTags: 'eu, beta',
      groups: 'support',
    })
    expect(result).toEqual({
      ok: true,
      profile: {
        id: 'alice',
        name: 'Alice',
        userId: 'alice@example.com',
        sessionTags: ['eu', 'beta'],
        groups: ['support'],
      },
    })
  })

  it('points at the empty user id with words a person can act on', () => {
    const result = parseDraft({ ...emptyDraft(), name: 'Alice' })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.errors.userId).toBe('enter the user id servers receive')
  })

  it('rejects an id with characters the settings file does not allow', () => {
    const result = parseDraft({ ...emptyDraft(), id: 'a b', name: 'A', userId: 'a' })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.errors.id).toContain('letters, digits')
  })
})
