import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ConsoleError } from '#shared/errors'
import { parseThreshold } from './gate'
import { parseStoredRun } from './run-store'
import { parseGoldenSet } from './set-store'
import { parseQrels, parseRun, parseTopics } from './trec'
import { formatTrecEval, readTrecQrels, readTrecRun, trecEval } from './trec-eval'

/**
 * Files and options a user (or an attacker) hands the evaluation: whatever they hold, the
 * readers return or refuse with an error that says what is wrong; they never crash.
 */

const text = fc.oneof(
  fc.string({ maxLength: 400 }),
  fc.string({ unit: 'binary', maxLength: 400 }),
  fc
    .array(
      fc.tuple(fc.string({ maxLength: 12 }), fc.constantFrom('0', 'Q0', '%', '%E0%A4', ' ', '\t')),
      { maxLength: 30 },
    )
    .map((parts) => parts.map(([a, b]) => `${a} ${b} ${a}`).join('\n')),
)
const json = fc.oneof(
  fc.json({ maxDepth: 5 }),
  fc.anything().map((v) => JSON.stringify(v) ?? 'null'),
)

describe('evaluation inputs under fuzz', () => {
  it('the trec_eval-compatible readers score any text or refuse it naming the line', () => {
    const line = fc.oneof(
      text,
      fc
        .tuple(
          fc.constantFrom('q1', 'q2', '10', '9'),
          fc.constantFrom('a', 'b', 'c', 'é', 'A'),
          fc.oneof(fc.integer({ min: -2, max: 5 }).map(String), fc.double().map(String)),
        )
        .map(([q, d, v]) => `${q} 0 ${d} ${v}\n${q} Q0 ${d} 1 ${v} tag`),
    )
    fc.assert(
      fc.property(line, line, fc.boolean(), (qrelsText, runText, complete) => {
        try {
          const result = trecEval(readTrecQrels(qrelsText, 'q'), readTrecRun(runText, 'r'), {
            cutoffs: [1, 5],
            complete,
          })
          for (const value of [result.all.map, ...result.all.P, ...result.all.ndcg_cut]) {
            expect(value).toBeGreaterThanOrEqual(0)
          }
          expect(formatTrecEval(result)).toMatch(/^runid +\tall\t/m)
        } catch (error) {
          expect(error).toBeInstanceOf(ConsoleError)
          expect((error as ConsoleError).message).toMatch(/line \d+|no query has both/)
        }
      }),
      { numRuns: 500 },
    )
  })

  it('TREC readers take any text and count what they cannot read', () => {
    fc.assert(
      fc.property(text, (input) => {
        for (const parse of [parseQrels, parseRun, parseTopics]) {
          const parsed = parse(input)
          expect(parsed.skipped).toBeGreaterThanOrEqual(0)
        }
      }),
      { numRuns: 500 },
    )
  })

  it('a golden set file is a valid set or an invalid_argument naming the problem', () => {
    fc.assert(
      fc.property(fc.oneof(json, text), (input) => {
        try {
          parseGoldenSet(input, 'the file')
        } catch (error) {
          expect(error).toBeInstanceOf(ConsoleError)
          expect((error as ConsoleError).code).toBe('invalid_argument')
          expect((error as Error).message).toMatch(
            /^the file (is not JSON|is not a valid golden set)/,
          )
        }
      }),
      { numRuns: 500 },
    )
  })

  it('a baseline run file is a run or an invalid_argument', () => {
    fc.assert(
      fc.property(fc.oneof(json, text), (input) => {
        try {
          parseStoredRun(input, 'baseline')
        } catch (error) {
          expect(error).toBeInstanceOf(ConsoleError)
          expect((error as Error).message).toMatch(/^baseline cannot be read as a run/)
        }
      }),
      { numRuns: 500 },
    )
  })

  it('refuses a run file whose results are not results, instead of failing later while measuring', () => {
    const shell = {
      version: 1,
      summary: { id: 'x', servers: ['a'] },
      inputs: { k: 10, profiles: ['p'] },
      queries: [],
    }
    for (const results of [
      [1],
      [{ queryId: 'q1', profileId: 'p', providers: [{ server: 'a' }] }],
    ]) {
      expect(() => parseStoredRun(JSON.stringify({ ...shell, results }), 'baseline')).toThrow(
        /^baseline cannot be read as a run \(results\.0/,
      )
    }
  })

  it('a --min value is a threshold or an error that shows how to write one', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (input) => {
        try {
          const threshold = parseThreshold(input)
          expect(threshold.min).toBeGreaterThanOrEqual(0)
          expect(threshold.min).toBeLessThanOrEqual(1)
        } catch (error) {
          expect((error as Error).message).toMatch(/write METRIC\[@K\]=VALUE/)
        }
      }),
      { numRuns: 500 },
    )
  })
})
