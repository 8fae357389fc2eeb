import { DEMO_USERS } from '#demo/access'
import type { Profile } from '#shared/model/user'

/** A saved profile acting as one of the demo servers' users (by its user id). */
export function demoProfile(userId: string, id: string, name: string): Profile {
  const user = DEMO_USERS.find((candidate) => candidate.id === userId)
  if (!user) throw new Error(`no demo user ${userId}`)
  return { id, name, userId: user.id, sessionTags: user.sessionTags, groups: user.groups }
}
