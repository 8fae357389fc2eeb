import { profilesRequests } from '#shared/ipc/profiles'
import type { Profile } from '#shared/model/user'

/** The profile form's text fields, as typed. */
export interface ProfileDraft {
  id: string
  name: string
  userId: string
  humanUid: string
  /** Comma-separated. */
  sessionTags: string
  /** Comma-separated; `*` lists every server (each server still decides). */
  groups: string
}

export type ProfileField = keyof ProfileDraft

/** `"a, b,,c "` → `['a', 'b', 'c']`. */
export function splitList(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
}

/** A profile id from a name: `Support — EU` → `support-eu`. */
export function slugify(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .replace(/-+$/, '')
    .replace(/-{2,}/g, '-')
    .toLowerCase()
    .slice(0, 64)
  return slug || 'profile'
}

export const emptyDraft = (): ProfileDraft => ({
  id: '',
  name: '',
  userId: '',
  humanUid: '',
  sessionTags: '',
  groups: '',
})

export const draftOf = (profile: Profile): ProfileDraft => ({
  id: profile.id,
  name: profile.name,
  userId: profile.userId,
  humanUid: profile.humanUid ?? '',
  sessionTags: profile.sessionTags.join(', '),
  groups: profile.groups.join(', '),
})

/**
 * Checks a draft with the same schema main validates `profiles:save` with, so errors show
 * next to the field before anything is sent. An empty id is derived from the name.
 */
export function parseDraft(
  draft: ProfileDraft,
): { ok: true; profile: Profile } | { ok: false; errors: Partial<Record<ProfileField, string>> } {
  const candidate = {
    id: draft.id.trim() || slugify(draft.name),
    name: draft.name,
    userId: draft.userId,
    sessionTags: splitList(draft.sessionTags),
    groups: splitList(draft.groups),
    ...(draft.humanUid.trim() ? { humanUid: draft.humanUid.trim() } : {}),
  }
  const parsed = profilesRequests['profiles:save'].safeParse(candidate)
  if (parsed.success) return { ok: true, profile: parsed.data }
  const errors: Partial<Record<ProfileField, string>> = {}
  for (const issue of parsed.error.issues) {
    const field = issue.path[0]
    if (typeof field === 'string' && field in draft && !errors[field as ProfileField]) {
      errors[field as ProfileField] = describe(field as ProfileField, issue.code, issue.message)
    }
  }
  return { ok: false, errors }
}

function describe(field: ProfileField, code: string, message: string): string {
  if (code === 'too_small') {
    return field === 'name'
      ? 'give the profile a name'
      : field === 'userId'
        ? 'enter the user id servers receive'
        : 'must not be empty'
  }
  if (code === 'too_big') return 'too long'
  return message
}

/** One line about who a profile acts as: `alice · tags: eu, beta · groups: support`. */
export function describeProfile(profile: Profile): string {
  const parts = [profile.userId]
  if (profile.sessionTags.length) parts.push(`tags: ${profile.sessionTags.join(', ')}`)
  if (profile.groups.length) parts.push(`groups: ${profile.groups.join(', ')}`)
  return parts.join(' · ')
}
