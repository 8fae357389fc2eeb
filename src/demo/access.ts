import type { Doc } from './data/types'

/** A person in the demo directory. */
export interface DemoUser {
  id: string
  name: string
  /** Groups the rag-tools-v1 directory gives this user. */
  groups: string[]
  /** Session tags a rag-search client would send for this user. */
  sessionTags: string[]
}

/** The demo directory: users in different groups, so "view as" shows real differences. */
export const DEMO_USERS: DemoUser[] = [
  {
    id: 'alice@example.com',
    name: 'Alice Lee (sales)',
    groups: ['users', 'sales'],
    sessionTags: ['department:sales', 'region:north'],
  },
  {
    id: 'bob@example.com',
    name: 'Bob Martins (engineering)',
    groups: ['users', 'engineering'],
    sessionTags: ['department:engineering'],
  },
  {
    id: 'carol@example.com',
    name: 'Carol Mendes (legal, admin)',
    groups: ['users', 'legal', 'admin'],
    sessionTags: ['department:legal', 'role:admin'],
  },
  {
    id: 'dan@contractor.example',
    name: 'Dan Novak (contractor)',
    groups: ['contractors'],
    sessionTags: ['contractor'],
  },
]

/** Groups the directory gives a user; undefined for a user it does not know. */
export function directoryGroups(userId: string): string[] | undefined {
  const id = userId.trim().toLowerCase()
  return DEMO_USERS.find((user) => user.id === id)?.groups
}

/**
 * Groups that rag-search derives from `x-session-tags`: `department:X` → X (and `users`),
 * `role:X` / `group:X` → X, `contractor` → `contractors`. Other tags (`region:north`,
 * `Q4-2024`, …) do not grant anything.
 */
export function groupsFromSessionTags(tags: readonly string[]): string[] {
  const groups = new Set<string>()
  for (const raw of tags) {
    const tag = raw.trim().toLowerCase()
    const [key, value] = tag.includes(':') ? tag.split(':', 2) : [tag, '']
    if (key === 'department' && value) groups.add(value).add('users')
    else if ((key === 'role' || key === 'group') && value) {
      groups.add(value === 'contractor' ? 'contractors' : value)
    } else if (key === 'contractor') groups.add('contractors')
  }
  return [...groups]
}

/** Access withdrawn from one user for one document. */
export interface Revocation {
  docId: string
  userId: string
  reason: string
}

/** Per-user revocations: the user's groups would allow the document, the owner said no. */
export const REVOCATIONS: Revocation[] = [
  {
    docId: 'sl-enterprise-deals-playbook',
    userId: 'alice@example.com',
    reason: 'moved to the SMB team; enterprise material was withdrawn',
  },
  {
    docId: 'en-incidents-postmortem',
    userId: 'bob@example.com',
    reason: 'postmortem restricted to the incident team while under review',
  },
]

export function revocationFor(docId: string, userId: string): Revocation | undefined {
  const id = userId.trim().toLowerCase()
  return REVOCATIONS.find((entry) => entry.docId === docId && entry.userId === id)
}

/** Whether these groups may read the document (ignoring revocation and deletion). */
export function groupsAllow(doc: Doc, groups: readonly string[]): boolean {
  return doc.groups.includes('everyone') || doc.groups.some((group) => groups.includes(group))
}

/** Whether this user, with these groups, may see the document in search results. */
export function canRead(doc: Doc, userId: string, groups: readonly string[]): boolean {
  return groupsAllow(doc, groups) && !revocationFor(doc.id, userId)
}

/** Why a user may not open a document now, or the level they have. */
export type AccessDecision =
  | { ok: true; level: 'view' | 'edit' | 'admin' }
  | { ok: false; reason: 'deleted' | 'moved' | 'revoked' | 'groups'; message: string }

/** The full decision, as `verify_document_access` reports it. */
export function decideAccess(doc: Doc, userId: string, groups: readonly string[]): AccessDecision {
  if (doc.status === 'deleted')
    return { ok: false, reason: 'deleted', message: 'Document has been deleted' }
  if (doc.status === 'moved') {
    return {
      ok: false,
      reason: 'moved',
      message: 'Document was moved and no longer exists at its original location',
    }
  }
  const revoked = revocationFor(doc.id, userId)
  if (revoked) {
    return {
      ok: false,
      reason: 'revoked',
      message: `Access was revoked for ${userId}: ${revoked.reason}`,
    }
  }
  if (!groupsAllow(doc, groups)) {
    const have = groups.length ? groups.join(', ') : 'none'
    return {
      ok: false,
      reason: 'groups',
      message: `Document is restricted to ${doc.groups.join(', ')}; ${userId} is in: ${have}`,
    }
  }
  if (groups.includes('admin')) return { ok: true, level: 'admin' }
  const editors = doc.groups.filter(
    (group) => !['everyone', 'users', 'contractors'].includes(group),
  )
  return { ok: true, level: editors.some((group) => groups.includes(group)) ? 'edit' : 'view' }
}
