/**
 * Deliberately broken behaviours (`--break ID`), one per Doctor check, so a test can show that
 * each check catches exactly the fault it is named after. The ids are plain strings on purpose:
 * the demo servers share no code with the console.
 */
export const BREAKS = [
  'protocol.initialize',
  'protocol.ping',
  'protocol.tools-list',
  'protocol.errors',
  'rag-search.tool',
  'rag-search.phrases',
  'rag-search.shape',
  'rag-search.identity',
  'rag-search.verify',
  'rag-tools-v1.tools',
  'rag-tools-v1.envelope',
  'rag-tools-v1.unauthorized',
  'ragbox.tools',
  'ragbox.api-key',
  'ragbox.rate-limit',
  'ragbox.silence',
  'vtex.handshake',
  'vtex.endpoints',
  'vtex.resources',
  'vtex.filters',
  // The vtex program registered with a generic mapping of search_documents (hits at `results`).
  'generic.search-tool',
] as const

export type BreakId = (typeof BREAKS)[number]

const active = new Set<string>()

/** Turns on the given faults for this process (a demo process serves one configuration). */
export function setBreaks(ids: readonly string[]): void {
  active.clear()
  for (const id of ids) active.add(id)
}

/** Whether this process was started with `--break <id>`. */
export const broken = (id: BreakId): boolean => active.has(id)
