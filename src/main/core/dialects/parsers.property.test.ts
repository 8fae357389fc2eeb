import fc from 'fast-check'
import { describe, it } from 'vitest'
import * as ragboxFixtures from '#test/fixtures/dialects/ragbox'
import * as vtexFixtures from '#test/fixtures/dialects/vtex'
import { DIALECTS } from './registry'
import {
  PARSERS,
  SEEDS,
  expectEveryOperationWellFormed,
  mutate,
} from '#test/support/dialects/parser-inputs'
import { textResult } from '#test/support/dialects/recording-session'
import { expectWellFormed } from '#test/support/dialects/well-formed'

/**
 * Every parser, fed random values, random JSON text, truncated JSON and mutated spec examples:
 * it never throws, and what it returns is well-formed (a value plus violations).
 */

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
        fc.asyncProperty(replies, (reply) => expectEveryOperationWellFormed(adapter, reply)),
        { numRuns: 40 },
      )
    })
  }
})
