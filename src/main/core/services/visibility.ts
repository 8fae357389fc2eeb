import type { ActingUser } from '#shared/model/user'

/** A profile holding this group is shown every server and source; servers still decide access. */
export const ALL_GROUPS = '*'

/**
 * Whether something restricted to `groups` is shown to the acting user: unrestricted
 * (no groups) or sharing at least one group. Servers still enforce their own access.
 */
export function isVisibleTo(groups: readonly string[] | undefined, user: ActingUser): boolean {
  if (!groups || groups.length === 0) return true
  if (user.groups.includes(ALL_GROUPS)) return true
  return groups.some((group) => user.groups.includes(group))
}
