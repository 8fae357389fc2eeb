import type { ServerConfig } from '#shared/config/schema'
import type { ErrorInfo } from '#shared/errors'
import type { ActingUser, Profile } from '#shared/model/user'
import { isVisibleTo } from './visibility'

/** The identity operations run as, from a profile (its id and display name stay local). */
export function actingUser(profile: Profile): ActingUser {
  const user: ActingUser = {
    userId: profile.userId,
    sessionTags: [...profile.sessionTags],
    groups: [...profile.groups],
  }
  if (profile.humanUid) user.humanUid = profile.humanUid
  return user
}

/** The enabled servers the user may see, in registry order. */
export function visibleServers(servers: ServerConfig[], user: ActingUser): ServerConfig[] {
  return servers.filter((config) => config.enabled && isVisibleTo(config.groups, user))
}

/**
 * Why an operation cannot run on a server for this profile (unknown, disabled, hidden from
 * its groups), in words that say what to do; undefined when it can.
 */
export function targetError(
  id: string,
  config: ServerConfig | undefined,
  profile: Profile,
): ErrorInfo | undefined {
  if (!config) {
    return {
      code: 'not_found',
      origin: 'local',
      server: id,
      message: `server ${id} is not in the registry; check the id, or reload rag-mcp.json`,
    }
  }
  if (!config.enabled) {
    return {
      code: 'not_connected',
      origin: 'local',
      server: id,
      message: `server ${id} is disabled in rag-mcp.json; enable it to use it`,
    }
  }
  if (!isVisibleTo(config.groups, profile)) {
    return {
      code: 'invalid_argument',
      origin: 'local',
      server: id,
      message:
        `server ${id} is hidden from profile "${profile.name}" (it is for groups ` +
        `${config.groups.join(', ')}; the profile has ${profile.groups.join(', ') || 'none'}); ` +
        `switch profile or change the server's groups`,
      details: { hiddenFromProfile: true },
    }
  }
  return undefined
}
