import type { DataSourceConfig, ServerConfig } from '#shared/config/schema'
import type { Resource } from '#shared/model/rag'
import type { ActingUser } from '#shared/model/user'
import { isVisibleTo } from './visibility'

/**
 * Id of the one implicit source of a server that names none (no discovery tool, no
 * `dataSources` in its entry): "everything the server searches".
 */
export const ALL_SOURCES = '*'

/** A source as a profile sees it: whether it may see it and whether it is toggled on. */
export type SourceView = Resource & { selected: boolean; visible: boolean }

export interface SourceMergeInput {
  config: ServerConfig
  /**
   * What runtime discovery reported, authoritative for which sources exist; `null` when there
   * is nothing authoritative (the family has no discovery, or it failed).
   */
  discovered: Resource[] | null
  /** The profile's remembered toggles for this server (absent: never touched). */
  remembered: Record<string, boolean>
  user: ActingUser
  /**
   * Whether the server can be searched: `false` for one known to speak no family and to have no
   * mapping (see `searchability` in `discovery-service.ts`): none of its sources is selected,
   * and it gets no implicit "All documents" source. Absent: not known yet (not connected).
   */
  searchable?: boolean
}

export interface SourceMerge {
  sources: SourceView[]
  /**
   * Sources the profile may see and had selected (by toggle or default), or the config lists,
   * that the server no longer reports; only computed when discovery is authoritative.
   */
  missing: string[]
}

function fromConfig(config: ServerConfig, ds: DataSourceConfig): Resource {
  const resource: Resource = {
    server: config.id,
    id: ds.id,
    name: ds.name ?? ds.id,
    authRequired: ds.authMode !== undefined && ds.authMode !== 'none',
    groups: ds.groups ?? [],
    scopes: ds.scopes ?? [],
    defaultSelected: ds.defaultSelected ?? true,
  }
  if (ds.authMode) resource.authMode = ds.authMode
  return resource
}

/** Runtime facts, with the names, groups, auth mode and default the config gives. */
function withHints(resource: Resource, ds: DataSourceConfig | undefined): Resource {
  if (!ds) return resource
  const merged: Resource = { ...resource }
  if (ds.name) merged.name = ds.name
  if (ds.groups) merged.groups = ds.groups
  if (ds.authMode) merged.authMode = ds.authMode
  if (ds.scopes && merged.scopes.length === 0) merged.scopes = ds.scopes
  if (ds.defaultSelected !== undefined) merged.defaultSelected = ds.defaultSelected
  return merged
}

function implicitSource(config: ServerConfig): Resource {
  return {
    server: config.id,
    id: ALL_SOURCES,
    name: 'All documents',
    description: 'the server names no data sources: a search covers everything it holds',
    authRequired: false,
    groups: [],
    scopes: [],
    defaultSelected: true,
  }
}

/**
 * The sources of one server for one profile. Runtime discovery, when authoritative, decides
 * which sources exist; the config's `dataSources` supply names, groups (visibility), order
 * (config order first, then the server's) and defaults. Without it, the config's sources, plus
 * any the profile toggled on earlier (a restart must not lose them), or one implicit source.
 * A source is selected when visible and toggled on, else by its default (never when the
 * server's `ui.defaultSelected` is false and no toggle says otherwise); none is when the server
 * is known not to be searchable.
 */
export function mergeSources(input: SourceMergeInput): SourceMerge {
  const { config, discovered, remembered, user, searchable } = input
  const hints = new Map(config.dataSources.map((ds) => [ds.id, ds]))
  let resources: Resource[]
  const missing: string[] = []
  if (discovered) {
    const byId = new Map(discovered.map((r) => [r.id, r]))
    const ordered = config.dataSources.flatMap((ds) => (byId.has(ds.id) ? [byId.get(ds.id)!] : []))
    const rest = discovered.filter((r) => !hints.has(r.id))
    resources = [...ordered, ...rest].map((r) => withHints(r, hints.get(r.id)))
    const expected = new Set<string>()
    for (const ds of config.dataSources) {
      if (isVisibleTo(ds.groups, user)) expected.add(ds.id)
    }
    for (const [id, on] of Object.entries(remembered)) {
      const ds = hints.get(id)
      if (on && (!ds || isVisibleTo(ds.groups, user))) expected.add(id)
    }
    for (const id of expected) if (!byId.has(id) && id !== ALL_SOURCES) missing.push(id)
  } else {
    resources = config.dataSources.map((ds) => fromConfig(config, ds))
    for (const [id, on] of Object.entries(remembered)) {
      if (on && id !== ALL_SOURCES && !hints.has(id)) {
        resources.push({ ...fromConfig(config, { id }), defaultSelected: false })
      }
    }
    if (resources.length === 0 && searchable !== false) resources = [implicitSource(config)]
  }
  const serverDefault = config.ui.defaultSelected !== false
  const sources = resources.map((resource) => {
    const visible = isVisibleTo(resource.groups, user)
    const toggle = remembered[resource.id]
    const selected =
      searchable !== false && visible && (toggle ?? (serverDefault && resource.defaultSelected))
    return { ...stripUndefined(resource), selected, visible }
  })
  return { sources, missing }
}

/**
 * The source ids to send for a selection: the implicit source means "no filter" (empty list,
 * the server's own default).
 */
export function sourcesToSend(selected: string[]): string[] {
  return selected.filter((id) => id !== ALL_SOURCES)
}

function stripUndefined<T extends object>(value: T): T {
  // Runs for every source of every server on every search: no intermediate arrays.
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    const field = (value as Record<string, unknown>)[key]
    if (field !== undefined) out[key] = field
  }
  return out as T
}
