import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createRedactor } from '../secrets/redactor'
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
 * Fuzzing the server-reply boundary with what hostile or broken servers send: huge strings,
 * deep nesting, nulls and wrong types anywhere, JSON-RPC envelopes where a result belongs,
 * JSON text inside text blocks. Every parser and every adapter operation must give a
 * well-formed result (hits or a value, plus violations) or a classified error, never a throw.
 * Bounded: a fixed number of runs per case, each reply built once (see docs/testing.md).
 */

const RUNS = 12
/** fast-check stops a case early rather than let the suite run long on a slow machine. */
const LIMITS = { numRuns: RUNS, interruptAfterTimeLimit: 4_000 }

const seed = fc.constantFrom(...SEEDS)

/** `depth` nested arrays or objects around a leaf, built without recursion. */
function nested(depth: number, kind: 'array' | 'object', leaf: unknown): unknown {
  let value = leaf
  for (let i = 0; i < depth; i += 1) value = kind === 'array' ? [value] : { a: value, id: i }
  return value
}

const huge = fc
  .tuple(fc.integer({ min: 100_000, max: 2_000_000 }), fc.constantFrom('x', '"', '\\', 'é', '\n'))
  .map(([length, char]) => char.repeat(length))

const deep = fc
  .tuple(
    fc.integer({ min: 1_000, max: 20_000 }),
    fc.constantFrom('array', 'object') as fc.Arbitrary<'array' | 'object'>,
  )
  .map(([depth, kind]) => nested(depth, kind, 'leaf'))

const wrong = fc.constantFrom<unknown>(
  null,
  undefined,
  0,
  -1,
  Number.MAX_VALUE,
  '',
  'text',
  true,
  [],
  {},
  [null],
  { length: -1 },
  { toString: 'not a function' },
  Object.create(null) as object,
)

/** A seed with up to five nodes replaced by nulls and values of the wrong type. */
const mistyped = fc
  .tuple(seed, fc.array(fc.tuple(fc.nat({ max: 200 }), wrong), { minLength: 1, maxLength: 5 }))
  .map(([value, edits]) => edits.reduce((out, [pick, what]) => mutate(out, pick, what), value))

const HOSTILE = {
  'huge strings inside valid replies': fc
    .tuple(seed, fc.nat({ max: 200 }), huge)
    .map(([value, pick, text]) => mutate(value, pick, text)),
  'a huge text block': huge.map(textResult),
  'a deeply nested reply': fc.oneof(
    deep,
    deep.map((tree) => ({ content: [], structuredContent: tree })),
    deep.map((tree) => ({ content: [{ type: 'text', text: 'x' }], _meta: tree })),
  ),
  'deep nesting inside valid replies': fc
    .tuple(seed, fc.nat({ max: 200 }), deep)
    .map(([value, pick, tree]) => mutate(value, pick, tree)),
  'deeply nested JSON text': fc
    .integer({ min: 1_000, max: 50_000 })
    .map((depth) => textResult(`${'['.repeat(depth)}1${']'.repeat(depth)}`)),
  'nulls and wrong types anywhere': mistyped,
  'JSON-RPC envelopes where the result belongs': fc
    .tuple(seed, fc.oneof(fc.integer(), fc.string(), fc.constant(null)), fc.jsonValue())
    .chain(([value, id, data]) =>
      fc.constantFrom<unknown>(
        { jsonrpc: '2.0', id, result: value },
        { jsonrpc: '2.0', id, error: { code: -32000, message: 'unauthorized', data } },
        { jsonrpc: '2.0', id, error: { code: 'x', message: null } },
        [{ jsonrpc: '2.0', id, result: value }],
        {
          content: [{ type: 'text', text: JSON.stringify({ jsonrpc: '2.0', id, result: value }) }],
        },
      ),
    ),
  'content blocks of every shape': fc
    .array(
      fc.oneof(
        fc.record({ type: fc.constantFrom('text', 'image', 'resource', 'x'), text: fc.anything() }),
        fc.anything({ maxDepth: 2 }),
      ),
      { maxLength: 5 },
    )
    .chain((content) =>
      fc.record({ content: fc.constant(content), isError: fc.anything({ maxDepth: 0 }) }),
    ),
}

describe('reply boundary fuzz: parsers', () => {
  for (const [name, parse] of Object.entries(PARSERS)) {
    for (const [kind, arbitrary] of Object.entries(HOSTILE)) {
      it(`${name}: ${kind}`, () => {
        fc.assert(
          fc.property(arbitrary, (raw) => expectWellFormed(parse(raw))),
          LIMITS,
        )
      })
    }
  }
})

/** What crosses to the renderer or the CLI: the result, redacted, as JSON text. */
function crossesTheBoundary(result: unknown): void {
  const redactor = createRedactor()
  redactor.add('a-registered-secret')
  expect(typeof JSON.stringify(redactor.redactValues({ result }))).toBe('string')
  expect(typeof JSON.stringify(redactor.redact({ result }))).toBe('string')
}

describe('reply boundary fuzz: adapters', () => {
  const replies = fc.oneof(...Object.values(HOSTILE))
  for (const adapter of DIALECTS) {
    it(`${adapter.id}: every operation on hostile replies, its result redacted and serialised`, async () => {
      await fc.assert(
        fc.asyncProperty(replies, (reply) =>
          expectEveryOperationWellFormed(adapter, reply, crossesTheBoundary),
        ),
        LIMITS,
      )
    })
  }
})
