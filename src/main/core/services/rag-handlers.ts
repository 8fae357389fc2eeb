import type { AccessTargetInput, RagResults } from '#shared/ipc/rag'
import type { ChannelHandlers } from '#shared/ipc/contract'
import type { AccessTarget } from './access-service'
import type { RagServices } from './rag-services'
import { streamedReply } from './search-service'

/** A hit, a citation or a plain target, as the access check takes it. */
export function toAccessTarget(input: AccessTargetInput): AccessTarget {
  const target: AccessTarget = {}
  if ('hit' in input) {
    target.server = input.hit.server
    target.segmentId = input.hit.id
    if (input.hit.uri) target.url = input.hit.uri
  } else if ('citation' in input) {
    target.server = input.citation.server
    if (input.citation.hitId) target.segmentId = input.citation.hitId
    if (input.citation.uri) target.url = input.citation.uri
  } else {
    if (input.server) target.server = input.server
    if (input.segmentId) target.segmentId = input.segmentId
    if (input.url) target.url = input.url
  }
  return target
}

function exportName(format: 'jsonl' | 'csv', now: Date): string {
  return `rag-console-audit-${now.toISOString().replace(/[:.]/g, '-')}.${format}`
}

/** IPC handlers of the operations: servers, discovery, search, synthesis, access, audit. */
export function ragHandlers(services: RagServices): Pick<ChannelHandlers, keyof RagResults> {
  return {
    'servers:list': () => services.servers.list(),
    'discovery:run': (request) => services.discovery.run(request ?? {}),
    // Raw payloads stay in main (the inspector asks for one); streamed hits are not sent twice.
    'search:run': async ({
      selection,
      filters,
      phrases,
      topK,
      fusion,
      timeoutMs,
      streamed,
      ...rest
    }) => {
      const result = await services.search.run({
        ...rest,
        ...(selection ? { selection } : {}),
        ...(filters ? { filters } : {}),
        ...(phrases ? { phrases } : {}),
        ...(topK ? { topK } : {}),
        ...(fusion ? { fusion } : {}),
        ...(timeoutMs ? { timeoutMs } : {}),
        holdRaw: true,
      })
      return streamed ? streamedReply(result) : result
    },
    'search:raw': ({ searchId, server, sourceId, hitId }) =>
      services.rawPayloads.get(searchId, { server, sourceId, id: hitId }),
    'search:cancel': ({ searchId }) => ({ cancelled: services.search.cancel(searchId) }),
    'synthesis:run': ({ query, topK, selection, timeoutMs }) =>
      services.synthesis.run({
        query,
        ...(topK ? { topK } : {}),
        ...(selection ? { selection } : {}),
        ...(timeoutMs ? { timeoutMs } : {}),
      }),
    'access:check': async ({ target, refresh, profileId }) => {
      // Checked again from the history: its signed link whole, when this run still has it.
      const parts = services.accessHistory.restore(toAccessTarget(target))
      const check = await services.access.check(parts, {
        refresh: refresh ?? false,
        ...(profileId ? { profile: services.profile(profileId) } : {}),
      })
      services.accessHistory.add(parts, check, profileId)
      return check
    },
    'access:check-all': ({ batchId, targets, refresh, profileId }) =>
      services.access.checkAll(batchId, targets.map(toAccessTarget), {
        refresh: refresh ?? false,
        ...(profileId ? { profile: services.profile(profileId) } : {}),
      }),
    'access:history': () => services.accessHistory.list(),
    'audit:list': (filter) => services.audit.read(withoutUndefined(filter ?? {})),
    'audit:export': ({ format, filter }) => ({
      fileName: exportName(format, new Date()),
      mime: format === 'csv' ? 'text/csv' : 'application/x-ndjson',
      ...services.audit.export(format, withoutUndefined(filter ?? {})),
    }),
  }
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T
}
