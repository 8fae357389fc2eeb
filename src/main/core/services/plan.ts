import type { ServerConfig } from '#shared/config/schema'
import type { ErrorInfo } from '#shared/errors'
import type { Selection } from '#shared/model/operations'
import type { AuthMode } from '#shared/model/rag'
import type { Profile } from '#shared/model/user'
import type { SourceMerge, SourceView } from './sources'
import { sourcesToSend } from './sources'
import { actingUser, targetError, visibleServers } from './targets'
import type { RegistryReader } from './types'

/** One server an operation fans out to, with the sources to send. */
export interface Target {
  server: string
  config?: ServerConfig
  /** Source ids to send; empty: the server's own default. */
  sources: string[]
  /** Why the server cannot take part (unknown, disabled, hidden); it is reported, not called. */
  problem?: ErrorInfo
  /** Selected sources left out because the profile may not see them. */
  dropped: { sourceId: string; error: ErrorInfo }[]
  /** Auth mode of each source, where known (capability sources get their session token). */
  authModes: Readonly<Record<string, AuthMode | undefined>>
}

export interface PlanDeps {
  registry: RegistryReader
  /** What is known of a server's sources for a profile (see `DiscoveryService.sourcesOf`). */
  sourcesOf(config: ServerConfig, profile: Profile): SourceMerge
}

/** What a plan looks up in a server's sources, worked out once per merge (merges are kept). */
interface SourceIndex {
  byId: Map<string, SourceView>
  authModes: Readonly<Record<string, AuthMode | undefined>>
}

const indexes = new WeakMap<SourceMerge, SourceIndex>()

/**
 * A server's sources by id and their auth modes. A 100-server search planned ~3,300 sources
 * into fresh maps each time (~1 ms before its first request could leave).
 */
function sourceIndex(merge: SourceMerge): SourceIndex {
  let index = indexes.get(merge)
  if (!index) {
    index = {
      byId: new Map(merge.sources.map((source) => [source.id, source])),
      authModes: Object.freeze(Object.fromEntries(merge.sources.map((s) => [s.id, s.authMode]))),
    }
    indexes.set(merge, index)
  }
  return index
}

/**
 * The servers and sources an operation runs on. Without a selection: every visible enabled
 * server with the profile's remembered selection (servers with nothing selected sit out).
 * With one: the named servers (each checked: known, enabled, visible) and their named sources,
 * minus sources hidden from the profile; an empty list means the server's default. Registry
 * order, unknown servers last.
 */
export function planTargets(deps: PlanDeps, profile: Profile, selection?: Selection): Target[] {
  const servers = deps.registry.current().servers
  if (!selection) {
    return visibleServers(servers, actingUser(profile)).flatMap((config) => {
      const merge = deps.sourcesOf(config, profile)
      const selected = merge.sources.filter((source) => source.selected)
      if (selected.length === 0) return []
      return [
        {
          server: config.id,
          config,
          sources: sourcesToSend(selected.map((source) => source.id)),
          dropped: [],
          authModes: sourceIndex(merge).authModes,
        },
      ]
    })
  }
  const order = new Map(servers.map((config, index) => [config.id, index]))
  const ids = Object.keys(selection).sort(
    (a, b) => (order.get(a) ?? Infinity) - (order.get(b) ?? Infinity),
  )
  return ids.map((id) => {
    const config = deps.registry.server(id)
    const problem = targetError(id, config, profile)
    if (!config || problem) {
      const target: Target = { server: id, sources: [], dropped: [], authModes: {} }
      if (config) target.config = config
      if (problem) target.problem = problem
      return target
    }
    const { byId: known, authModes } = sourceIndex(deps.sourcesOf(config, profile))
    const target: Target = { server: id, config, sources: [], dropped: [], authModes }
    for (const sourceId of selection[id] ?? []) {
      const source = known.get(sourceId)
      if (source && !source.visible) {
        target.dropped.push({ sourceId, error: hiddenSource(id, sourceId, source.groups, profile) })
      } else if (!target.sources.includes(sourceId)) target.sources.push(sourceId)
    }
    target.sources = sourcesToSend(target.sources)
    if ((selection[id] ?? []).length > 0 && target.dropped.length === selection[id]!.length) {
      target.problem = {
        code: 'invalid_argument',
        origin: 'local',
        server: id,
        message: `server ${id}: none of the selected sources is visible to profile "${profile.name}"; select others or switch profile`,
        details: { hiddenFromProfile: true },
      }
    }
    return target
  })
}

function hiddenSource(
  server: string,
  sourceId: string,
  groups: string[],
  profile: Profile,
): ErrorInfo {
  return {
    code: 'invalid_argument',
    origin: 'local',
    server,
    message:
      `source ${sourceId} of server ${server} is hidden from profile "${profile.name}" ` +
      `(it is for groups ${groups.join(', ')}); it was left out of the search`,
  }
}
