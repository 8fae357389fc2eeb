import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ConsoleError } from '../../../shared/errors'
import * as genericFixtures from './fixtures/generic'
import * as ragSearchFixtures from './fixtures/rag-search'
import * as ragToolsFixtures from './fixtures/rag-tools-v1'
import * as ragboxFixtures from './fixtures/ragbox'
import * as vtexFixtures from './fixtures/vtex'
import { parseGenericResult } from './generic'
import { parseAccessResult, parseRagSearchResult } from './rag-search'
import { parseDiscoverResult, parseRawResults, parseSynthesisResult } from './rag-tools-v1'
import {
  parseRagboxAnswer,
  parseRagboxDocument,
  parseRagboxList,
  parseRagboxSearch,
} from './ragbox'
import { DIALECTS } from './registry'
import { RecordingSession, asUser, textResult } from './testing/recording-session'
import { expectWellFormed, type WellFormedSubject } from './testing/well-formed'
import { parseHandshake, parseVtexRead, parseVtexResources, parseVtexSearch } from './vtex'

/**
 * Every parser, fed random values, random JSON text, truncated JSON and mutated spec examples:
 * it never throws, and what it returns is well-formed (a value plus violations).
 */

const PARSERS: Record<string, (raw: unknown) => WellFormedSubject> = {
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
const SEEDS: unknown[] = [
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
function mutate(value: unknown, pick: number, replacement: unknown): unknown {
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

const seed = fc.constantFrom(...SEEDS)
const RAW_INPUTS = {
  'random values': fc.anything(),
  'random objects': fc.object({ maxDepth: 4 }),
  'random JSON text': fc.json({ maxDepth: 4 }).map(textResult),
  'random structuredContent': fc
    .anything()
    .map((value) => ({ content: [], structuredContent: value })),
  'truncated JSON text': fc.tuple(seed, fc.nat()).map(([value, cut]) => {
    const text = JSON.stringify(value)
    return textResult(text.slice(0, cut % (text.length + 1)))
  }),
  'truncated JSON inside a spec reply': fc
    .tuple(
      fc.constantFrom(
        ragboxFixtures.specSearch,
        vtexFixtures.specSearch,
        ragboxFixtures.specAnswer,
      ),
      fc.nat(),
    )
    .map(([reply, cut]) => {
      const text = (reply.content as { text: string }[])[0]?.text ?? ''
      return textResult(text.slice(0, cut % (text.length + 1)))
    }),
  'mutated spec replies': fc
    .tuple(seed, fc.nat({ max: 200 }), fc.anything({ maxDepth: 2 }))
    .map(([value, pick, replacement]) => mutate(value, pick, replacement)),
}

describe('parsers never throw', () => {
  for (const [name, parse] of Object.entries(PARSERS)) {
    for (const [kind, arbitrary] of Object.entries(RAW_INPUTS)) {
      it(`${name}: ${kind} give a value and violations`, () => {
        fc.assert(
          fc.property(arbitrary, (raw) => {
            expectWellFormed(parse(raw))
          }),
          { numRuns: 60 },
        )
      })
    }
  }
})

describe('adapters only fail with classified errors', () => {
  const replies = fc.oneof(...Object.values(RAW_INPUTS))
  for (const adapter of DIALECTS) {
    it(`${adapter.id}: search, discover, synthesize, verify, read and describe on random replies`, async () => {
      await fc.assert(
        fc.asyncProperty(replies, async (reply) => {
          const session = new RecordingSession({
            tools: Object.fromEntries(
              [
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
              ].map((tool) => [tool, reply]),
            ),
            requests: { 'resources/list': reply, 'resources/read': reply, handshake: reply },
            config: { dialect: { search: genericFixtures.memoryMapping } },
          })
          const operations = [
            () =>
              adapter.search(session, { query: 'q', phrases: [], topK: 5, sources: [] }, asUser()),
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
            } catch (error) {
              expect(error).toBeInstanceOf(ConsoleError)
            }
          }
        }),
        { numRuns: 40 },
      )
    })
  }
})
