import type { ServerDiscovery } from '#shared/model/operations'
import type { ServerSummary } from '#shared/model/server'

/** A connected HTTP server's summary for tests; `over` sets the rest (status, url, …). */
export const testServer = (id: string, over: Partial<ServerSummary> = {}): ServerSummary => ({
  id,
  enabled: true,
  transport: 'http',
  url: `http://127.0.0.1:7000/${id}`,
  groups: [],
  ui: {},
  origin: '/r.json',
  dialect: { id: 'ragbox', source: 'config', reason: '' },
  status: { state: 'ready', since: 1 },
  tools: [],
  visible: true,
  secrets: [],
  ...over,
})

/** A source of server `kb` as discovery lists it: open, selected and visible; `over` sets the rest. */
export const testSource = (
  id: string,
  over: Partial<ServerDiscovery['sources'][number]> = {},
): ServerDiscovery['sources'][number] => ({
  server: 'kb',
  id,
  name: id,
  authRequired: false,
  groups: [],
  scopes: [],
  defaultSelected: true,
  selected: true,
  visible: true,
  ...over,
})
