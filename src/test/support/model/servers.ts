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
