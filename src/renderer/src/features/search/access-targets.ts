import type { AccessTargetInput } from '#shared/ipc/rag'
import type { Citation, Hit } from '#shared/model/rag'

/** What the Access panel checks for a hit: its server, id and link (only those cross IPC). */
export function hitTarget(hit: Pick<Hit, 'server' | 'id' | 'uri'>): AccessTargetInput {
  return { hit: { server: hit.server, id: hit.id, ...(hit.uri ? { uri: hit.uri } : {}) } }
}

/** What the Access panel checks for a citation of an answer. */
export function citationTarget(
  citation: Pick<Citation, 'server' | 'hitId' | 'uri'>,
): AccessTargetInput {
  return {
    citation: {
      server: citation.server,
      ...(citation.hitId ? { hitId: citation.hitId } : {}),
      ...(citation.uri ? { uri: citation.uri } : {}),
    },
  }
}
