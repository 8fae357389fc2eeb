import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { uikitSearchDocs, vectorQuery, voltagentSearchDocs } from '#test/fixtures/dialects/generic'
import {
  MAX_CANDIDATES,
  MAX_FIELDS,
  PREVIEW_HITS,
  previewMapping,
  proposeMapping,
} from './mapping-proposal'
import type { MappingProposal } from '#shared/model/mapping'

/**
 * Proposing a mapping from hostile replies: huge, deep, wide, self-referencing (the same object
 * under many keys, and a real cycle as a buggy in-process caller could hand over), non-JSON text,
 * and random JSON. Each must end in a bounded proposal (maybe with a `problem`) that serialises,
 * and its preview in well-formed hits, never in a throw. Bounded: fixed runs, each reply built
 * once (see docs/testing.md).
 */

const LIMITS = { numRuns: 12, interruptAfterTimeLimit: 4_000 }
const CALL = { tool: 'search', arguments: { query: 'x' }, queryArgument: 'query' }

function expectBounded(proposal: MappingProposal): void {
  expect(proposal.candidates.length).toBeLessThanOrEqual(MAX_CANDIDATES)
  expect(proposal.fields.length).toBeLessThanOrEqual(MAX_FIELDS)
  expect(proposal.mapping.tool).toBe('search')
  // It goes over IPC and into rag-mcp.json: it must be plain JSON of a sane size.
  expect(JSON.stringify(proposal).length).toBeLessThan(200_000)
  if (proposal.problem === undefined) {
    const preview = previewMapping({ structuredContent: {} }, 's', proposal.mapping)
    expect(preview.hits.length).toBeLessThanOrEqual(PREVIEW_HITS)
  }
}

const propose = (raw: unknown): MappingProposal => {
  const proposal = proposeMapping(raw, CALL)
  expectBounded(proposal)
  return proposal
}

const asText = (text: string) => ({ content: [{ type: 'text', text }] })

function nested(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = { id: 'leaf', title: 'Leaf' }
  for (let i = 0; i < depth; i += 1) value = kind === 'array' ? [value] : { results: [value], i }
  return value
}

describe('mapping proposal on hostile replies', () => {
  it('proposes within bounds for any JSON value as structuredContent or as text', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.boolean(), (value, text) => {
        propose(text ? asText(JSON.stringify(value)) : { structuredContent: value })
      }),
      LIMITS,
    )
  })

  it('walks huge lists and wide objects without looking at all of them', () => {
    fc.assert(
      fc.property(fc.integer({ min: 50_000, max: 200_000 }), (count) => {
        const hits = Array.from({ length: count }, (_, i) => ({
          id: `d${i}`,
          [`k${i % 5_000}`]: i,
        }))
        const wide = Object.fromEntries(hits.slice(0, 20_000).map((hit, i) => [`list${i}`, [hit]]))
        const proposal = propose({ structuredContent: { results: hits, ...wide } })
        expect(proposal.candidates[0]!.items).toBe(count)
        const preview = previewMapping({ structuredContent: { results: hits } }, 's', {
          tool: 'search',
          hits: 'results',
        })
        expect(preview.count).toBe(count)
        expect(preview.hits).toHaveLength(PREVIEW_HITS)
      }),
      { ...LIMITS, numRuns: 3 },
    )
  })

  it('stops at a depth bound in deeply nested replies', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_000, max: 20_000 }),
        fc.constantFrom('array', 'object') as fc.Arbitrary<'array' | 'object'>,
        (depth, kind) => {
          propose({ structuredContent: nested(depth, kind) })
        },
      ),
      { ...LIMITS, numRuns: 4 },
    )
  })

  it('survives shared and cyclic objects', () => {
    const shared = { id: 'a', title: 'A', text: 'same object everywhere' }
    const lists = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`l${i}`, [shared]]))
    propose({ structuredContent: lists })
    const cyclic: Record<string, unknown> = { id: 'c', title: 'Cycle' }
    cyclic.self = cyclic
    cyclic.results = [cyclic, cyclic]
    propose({ structuredContent: cyclic })
  })

  it('says plain, huge or broken text is not JSON', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 200 }).filter((s) => {
            try {
              JSON.parse(s)
              return false
            } catch {
              return true
            }
          }),
          fc.constantFrom('x', '"', '\\', 'é', '{').map((c) => c.repeat(1_000_000)),
          fc.constant('{"results": [{"id": 1}'),
        ),
        (text) => {
          expect(propose(asText(text)).problem).toMatch(/plain text, not JSON/)
        },
      ),
      LIMITS,
    )
  })

  it('keeps every proposal for the real shapes stable under extra noise keys', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(voltagentSearchDocs, uikitSearchDocs, vectorQuery),
        fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), {
          maxKeys: 8,
        }),
        (reply, noise) => {
          const proposal = propose({ ...reply, _meta: noise })
          expect(proposal.problem).toBeUndefined()
        },
      ),
      LIMITS,
    )
  })
})
