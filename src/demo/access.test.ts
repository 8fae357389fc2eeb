import { describe, expect, it } from 'vitest'
import { decideAccess, directoryGroups, groupsFromSessionTags } from './access'
import { getCorpus } from './data/corpus'

describe('demo access rules', () => {
  const doc = (id: string) => getCorpus().byId.get(id)!

  it('derives groups from session tags and ignores the rest', () => {
    expect(
      groupsFromSessionTags(['department:Legal', 'role:admin', 'region:north', 'Q4-2024']).sort(),
    ).toEqual(['admin', 'legal', 'users'])
    expect(groupsFromSessionTags(['contractor'])).toEqual(['contractors'])
  })

  it('knows the directory users case-insensitively', () => {
    expect(directoryGroups('Carol@Example.com')).toEqual(['users', 'legal', 'admin'])
    expect(directoryGroups('mallory@example.com')).toBeUndefined()
  })

  it('explains each denial', () => {
    expect(decideAccess(doc('it-backups-faq'), 'bob@example.com', ['users'])).toMatchObject({
      ok: false,
      message: 'Document has been deleted',
    })
    expect(
      decideAccess(doc('en-incidents-postmortem'), 'bob@example.com', ['users', 'engineering']),
    ).toMatchObject({
      ok: false,
      reason: 'revoked',
    })
    expect(
      decideAccess(doc('lg-msa-overview'), 'alice@example.com', ['users', 'sales']),
    ).toMatchObject({
      ok: false,
      reason: 'groups',
    })
  })

  it('grants view, edit or admin', () => {
    expect(decideAccess(doc('hb-pto-policy'), 'bob@example.com', ['users'])).toEqual({
      ok: true,
      level: 'view',
    })
    expect(decideAccess(doc('en-incidents-runbook'), 'bob@example.com', ['engineering'])).toEqual({
      ok: true,
      level: 'edit',
    })
    expect(decideAccess(doc('lg-msa-overview'), 'carol@example.com', ['legal', 'admin'])).toEqual({
      ok: true,
      level: 'admin',
    })
  })
})
