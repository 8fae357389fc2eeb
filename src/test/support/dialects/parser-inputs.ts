import * as genericFixtures from '../../fixtures/dialects/generic'
import * as ragSearchFixtures from '../../fixtures/dialects/rag-search'
import * as ragToolsFixtures from '../../fixtures/dialects/rag-tools-v1'
import * as ragboxFixtures from '../../fixtures/dialects/ragbox'
import * as vtexFixtures from '../../fixtures/dialects/vtex'
import { parseGenericResult } from '#core/dialects/generic'
import { parseAccessResult, parseRagSearchResult } from '#core/dialects/rag-search'
import {
  parseDiscoverResult,
  parseRawResults,
  parseSynthesisResult,
} from '#core/dialects/rag-tools-v1'
import {
  parseRagboxAnswer,
  parseRagboxDocument,
  parseRagboxList,
  parseRagboxSearch,
} from '#core/dialects/ragbox'
import {
  parseHandshake,
  parseVtexRead,
  parseVtexResources,
  parseVtexSearch,
} from '#core/dialects/vtex'
import { expect } from 'vitest'
import { ConsoleError } from '#shared/errors'
import type { DialectAdapter } from '#core/dialects/types'
import { RecordingSession, asUser } from './recording-session'
import { expectWellFormed, type WellFormedSubject } from './well-formed'

/** Every reply parser of every dialect, for the property and fuzz tests of the reply boundary. */
export const PARSERS: Record<string, (raw: unknown) => WellFormedSubject> = {
  'rag-search search': (raw) => parseRagSearchResult(raw, 's'),
  'rag-search verify': (raw) => parseAccessResult(raw, 's', 'seg'),
  'rag-tools-v1 discover': (raw) => parseDiscoverResult(raw, 's'),
  'rag-tools-v1 raw': (raw) => parseRawResults(raw, 's', ['kb']),
  'rag-tools-v1 synth': (raw) => parseSynthesisResult(raw, 's'),
  'ragbox search': (raw) => parseRagboxSearch(raw, 's'),
  'ragbox document': (raw) => parseRagboxDocument(raw, 's'),
  'ragbox list': (raw) => parseRagboxList(raw, 's'),
  'ragbox answer': (raw) => parseRagboxAnswer(raw, 's'),
  'vtex search': (raw) => parseVtexSearch(raw, 's'),
  'vtex read': (raw) => parseVtexRead(raw, 's'),
  'vtex resources': (raw) => parseVtexResources(raw, 's'),
  'vtex handshake': (raw) => parseHandshake(raw),
  'generic memory': (raw) => parseGenericResult(raw, 's', genericFixtures.memoryMapping),
}

/** Valid replies of every family, as the seeds for truncation and mutation. */
export const SEEDS: unknown[] = [
  ragSearchFixtures.specResponse,
  ragSearchFixtures.minimal,
  ragSearchFixtures.longText,
  ragSearchFixtures.specAccessGranted,
  ragToolsFixtures.structured(ragToolsFixtures.specDiscover),
  ragToolsFixtures.asText(ragToolsFixtures.rawFull),
  ragToolsFixtures.structured(ragToolsFixtures.partialUnauthorized),
  ragToolsFixtures.structured(ragToolsFixtures.specSynth),
  ragboxFixtures.specSearch,
  ragboxFixtures.specAnswer,
  ragboxFixtures.specSilence,
  ragboxFixtures.listDocuments,
  vtexFixtures.specSearch,
  vtexFixtures.specResourcesList,
  vtexFixtures.specResourcesRead,
  vtexFixtures.specHandshake,
  genericFixtures.memorySearchNodes,
]

/** A copy of `value` with the node at one random position replaced. */
export function mutate(value: unknown, pick: number, replacement: unknown): unknown {
  let counter = 0
  const walk = (node: unknown): unknown => {
    if (counter++ === pick) return replacement
    if (Array.isArray(node)) return node.map(walk)
    if (typeof node === 'object' && node !== null) {
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]))
    }
    if (typeof node === 'string' && node.startsWith('{')) {
      // JSON inside a text block: mutate inside it too.
      try {
        return JSON.stringify(walk(JSON.parse(node)))
      } catch {
        return node
      }
    }
    return node
  }
  return walk(value)
}

/**
 * Runs every operation of `adapter` against a session where every tool and request answers
 * `reply`: each must give a well-formed result (also passing `alsoCheck`) or fail with a
 * classified {@link ConsoleError}.
 */
export async function expectEveryOperationWellFormed(
  adapter: DialectAdapter,
  reply: unknown,
  alsoCheck: (result: unknown) => void = () => {},
): Promise<void> {
  const session = new RecordingSession({
    tools: Object.fromEntries(ALL_TOOLS.map((tool) => [tool, reply])),
    requests: { 'resources/list': reply, 'resources/read': reply, handshake: reply },
    config: { dialect: { search: genericFixtures.memoryMapping } },
  })
  const operations = [
    () => adapter.search(session, { query: 'q', phrases: [], topK: 5, sources: [] }, asUser()),
    () => adapter.discover(session, asUser()),
    () => adapter.synthesize?.(session, { query: 'q', topK: 5, sources: [] }, asUser()),
    () => adapter.verifyAccess?.(session, 'seg', asUser()),
    () => adapter.read?.(session, 'category/Product', asUser()),
    () => adapter.describe?.(session, asUser()),
  ]
  for (const operation of operations) {
    try {
      const result = (await operation()) as WellFormedSubject | undefined
      if (result) expectWellFormed(result)
      alsoCheck(result)
    } catch (error) {
      expect(error).toBeInstanceOf(ConsoleError)
    }
  }
}

/** Every tool any adapter calls. */
const ALL_TOOLS = [
  'rag_search',
  'verify_document_access',
  'rag_discover_resources',
  'rag_get_raw_results',
  'rag_get_synthesized_results',
  'search_documents',
  'get_document',
  'query_knowledge',
  'list_documents',
  'search_nodes',
]
