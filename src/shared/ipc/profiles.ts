import { z } from 'zod'
import type { Profile } from '../model/user'

const profileSchema = z.object({
  id: z
    .string()
    .regex(/^[A-Za-z0-9][\w.-]{0,63}$/, 'letters, digits, dot, dash or underscore, up to 64'),
  name: z.string().trim().min(1).max(80),
  userId: z.string().trim().min(1).max(256),
  sessionTags: z.array(z.string().trim().min(1).max(128)).max(32),
  humanUid: z.string().trim().max(256).optional(),
  groups: z.array(z.string().trim().min(1).max(128)).max(64),
})

const hostRules = z.array(z.string().trim().min(1).max(253)).max(500)

export const profilesRequests = {
  /** Every saved acting-user profile and which one is active. */
  'profiles:list': z.undefined(),
  /** Creates or replaces a profile (matched by id). */
  'profiles:save': profileSchema,
  'profiles:delete': z.object({ id: z.string() }),
  /** Makes a profile the acting user for every operation from now on. */
  'profiles:activate': z.object({ id: z.string() }),
  /** The remembered source toggles of the active profile (server → source → on/off). */
  'selection:get': z.undefined(),
  /** Turns sources on or off for the active profile; other sources keep their state. */
  'selection:set': z.object({
    server: z.string().min(1),
    sources: z.record(z.string(), z.boolean()),
  }),
  /** Which addresses the citation checker may request (`linkPolicy` in settings.json). */
  'link-policy:get': z.undefined(),
  /** Replaces the link policy; the next link check applies it. */
  'link-policy:set': z.object({
    allowHosts: hostRules,
    denyHosts: hostRules,
    privateHosts: hostRules,
  }),
}

/** The citation checker's address policy, as settings.json keeps it. */
export interface LinkPolicyState {
  /** When not empty, only these hosts (and their subdomains) are requested. */
  allowHosts: string[]
  /** Hosts (and their subdomains), IP addresses or CIDR ranges never requested. */
  denyHosts: string[]
  /**
   * Hosts (and their subdomains), IP addresses or CIDR ranges on this machine or a private
   * network that may be requested (intranet document hosts); others there are refused.
   */
  privateHosts: string[]
}

export interface ProfilesState {
  profiles: Profile[]
  activeId: string
}

export interface ProfilesResults {
  'profiles:list': ProfilesState
  'profiles:save': Profile
  'profiles:delete': ProfilesState
  'profiles:activate': Profile
  'selection:get': Record<string, Record<string, boolean>>
  'selection:set': Record<string, boolean>
  'link-policy:get': LinkPolicyState
  'link-policy:set': LinkPolicyState
}

export interface ProfilesEvents {
  /** Profiles were added, edited, removed, or another one became active. */
  'profiles:changed': ProfilesState
  /** The active profile's source toggles changed. */
  'selection:changed': { profileId: string; server: string; sources: Record<string, boolean> }
}
