import type { DiscoveryResult, Selection } from '#shared/model/operations'
import type { ErrorInfo } from '#shared/errors'

/** One server as the sources summary shows it. */
export interface ServerSources {
  server: string
  /** Names of the selected sources. */
  selected: { id: string; name: string }[]
  total: number
  error?: ErrorInfo
}

/**
 * What a search will run on, per server: discovery's sources with the profile's current toggles
 * (`selection:get`, newer than the discovery result when a toggle just changed).
 */
export function serverSources(
  discovery: DiscoveryResult | undefined,
  toggles: Record<string, Record<string, boolean>> | undefined,
): ServerSources[] {
  return (discovery?.servers ?? []).map((entry) => {
    const visible = entry.sources.filter((source) => source.visible)
    const selected = visible
      .filter((source) => toggles?.[entry.server]?.[source.id] ?? source.selected)
      .map((source) => ({ id: source.id, name: source.name }))
    const summary: ServerSources = { server: entry.server, selected, total: visible.length }
    if (!entry.ok && entry.error) summary.error = entry.error
    return summary
  })
}

/** A server with no sources of its own is one source; else it runs when one is selected. */
export const takesPart = (entry: ServerSources): boolean =>
  entry.total === 0 ? !entry.error : entry.selected.length > 0

/** A server a search does not run on, and why, in words for the main view. */
export interface SittingOut {
  server: string
  reason: string
}

/**
 * The servers that take no part unless someone acts (nothing selected, sources not listed):
 * a search never leaves a server out silently.
 */
export function sittingOut(servers: readonly ServerSources[]): SittingOut[] {
  return servers
    .filter((entry) => !takesPart(entry))
    .map((entry) => ({
      server: entry.server,
      reason: entry.error ? 'its sources could not be listed' : 'no source selected',
    }))
}

/**
 * The `selection` to send: undefined (the profile's remembered toggles) unless the user left
 * servers out of this search, then exactly the servers kept, with their selected sources.
 */
export function searchSelection(
  servers: readonly ServerSources[],
  excluded: ReadonlySet<string>,
): Selection | undefined {
  if (excluded.size === 0) return undefined
  const selection: Selection = {}
  for (const entry of servers) {
    if (excluded.has(entry.server) || !takesPart(entry)) continue
    selection[entry.server] = entry.selected.map((source) => source.id)
  }
  return selection
}
