import type { ServerSearchResult } from '#shared/model/operations'
import type { Hit } from '#shared/model/rag'

/** A hit for tests: its id doubles as its title; `over` sets the rest. */
export const testHit = (server: string, id: string, over: Partial<Hit> = {}): Hit => ({
  server,
  id,
  title: id,
  snippet: '',
  derived: { title: false, summary: false },
  flags: [],
  violations: [],
  raw: {},
  ...over,
})

/** A server's successful part of a search with these hits, for tests; `over` sets the rest. */
export const testPart = (
  server: string,
  hits: Hit[] = [],
  over: Partial<ServerSearchResult> = {},
): ServerSearchResult => ({
  server,
  ok: true,
  status: 'ready',
  latencyMs: 5,
  count: hits.length,
  hits,
  violations: [],
  sourceErrors: [],
  ...over,
})
