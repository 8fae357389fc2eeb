import type { EventBus } from '../events'
import type { ChannelHandlers } from '#shared/ipc/contract'
import type { SettingsStore } from './settings'

type ProfileChannels =
  | 'profiles:list'
  | 'profiles:save'
  | 'profiles:delete'
  | 'profiles:activate'
  | 'selection:get'
  | 'selection:set'
  | 'link-policy:get'
  | 'link-policy:set'

/**
 * IPC handlers for acting-user profiles, source toggles and the link policy; every profile or
 * selection change is an event.
 */
export function profileHandlers(
  settings: SettingsStore,
  events: EventBus,
): Pick<ChannelHandlers, ProfileChannels> {
  const state = () => ({ profiles: settings.profiles(), activeId: settings.active().id })
  const changed = () => events.emit('profiles:changed', state())
  return {
    'profiles:list': () => state(),
    'profiles:save': (profile) => {
      const { humanUid, ...rest } = profile
      const saved = settings.saveProfile(humanUid ? { ...rest, humanUid } : rest)
      changed()
      return saved
    },
    'profiles:delete': ({ id }) => {
      settings.deleteProfile(id)
      changed()
      return state()
    },
    'profiles:activate': ({ id }) => {
      const active = settings.setActive(id)
      changed()
      return active
    },
    'selection:get': () => {
      const profile = settings.active()
      return settings.selections(profile.id)
    },
    'selection:set': ({ server, sources }) => {
      const profile = settings.active()
      settings.setSelection(profile.id, server, sources)
      const now = settings.selection(profile.id, server)
      events.emit('selection:changed', { profileId: profile.id, server, sources: now })
      return now
    },
    'link-policy:get': () => settings.linkPolicy(),
    'link-policy:set': (policy) => {
      settings.setLinkPolicy(policy)
      return settings.linkPolicy()
    },
  }
}
