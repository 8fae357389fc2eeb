import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { codeFromWords } from '#shared/errors'
import { detectPromptInjection } from '#shared/text/injection'
import {
  countWords,
  deriveHeadline,
  deriveSummary,
  makeSnippet,
  splitSentences,
} from '#shared/text/sentences'
import { createRedactor, mayHoldCredential } from './redactor'
import { redactSignedLinks } from './signed-links'

/**
 * Every regular expression that runs on text a server sent (hits, answers, errors, protocol
 * messages): its time must grow linearly with the text. For each expression, fast-check builds
 * a hostile text by repeating a few fragments chosen to make a backtracking engine retry (runs
 * of line ends and spaces, keywords that start a match and never finish it, `http://` without a
 * query), and the time on 8× that text is compared with the time on the text, both measured in
 * this test (CPU time, the best of 5 interleaved rounds, each long enough to time): a linear expression
 * takes about 8×, a quadratic one about 64×. Bounded: the known texts and 6 random ones per expression.
 */

const K = 8
/** Linear with room for a loaded machine; a quadratic expression is far above it. */
const MAX_RATIO = 3 * K

/**
 * `size` characters of `unit` repeated, as a flat string of its own: `repeat` builds a rope
 * that the first search would flatten inside the timing, and V8 caches some results per
 * subject string, which would flatter repeated runs on one string.
 */
function textOf(unit: string, size: number): string {
  const rope = unit.repeat(Math.ceil(size / unit.length)).slice(0, size)
  // A JSON round trip makes a flat, one-byte where it can, heap string (Buffer decoding would
  // make a large one external, which the engine reads more slowly).
  return JSON.parse(JSON.stringify(rope)) as string
}

setFlagsFromString('--expose-gc')
/** A full collection before each timing, so neither side pays for the other's garbage. */
const collectGarbage = runInNewContext('gc') as () => void

/**
 * CPU milliseconds per run of `fn` over `runs` texts of `size` characters of `unit`: CPU time,
 * not wall time, so other processes on a loaded machine do not count.
 */
function perRun(fn: (text: string) => unknown, unit: string, size: number, runs: number): number {
  const texts = Array.from({ length: runs }, () => textOf(unit, size))
  collectGarbage()
  const started = process.cpuUsage()
  for (const text of texts) fn(text)
  const used = process.cpuUsage(started)
  return (used.user + used.system) / 1000 / runs
}

/**
 * Below this much CPU per run on the large text, a ratio is timer noise, not growth: the
 * expression gave up at once (no `http` in the text, say). A quadratic expression on `K·n`
 * characters takes seconds.
 */
const NOISE_FLOOR_MS = 1

/**
 * The time of `fn` on `K·n` characters of `unit` repeated over its time on `n`, and its time
 * per run on the larger text.
 */
function growth(
  fn: (text: string) => unknown,
  unit: string,
  n: number,
): { ratio: number; largeMs: number } {
  // Enough runs that the small texts take ~4 ms in all (timer resolution, JIT warm-up).
  let runs = 1
  while (perRun(fn, unit, n, runs) * runs < 4 && runs * n < 8_000_000) runs *= 2
  let bestSmall = Infinity
  let bestLarge = Infinity
  for (let round = 0; round < 5; round++) {
    bestSmall = Math.min(bestSmall, perRun(fn, unit, n, runs))
    bestLarge = Math.min(bestLarge, perRun(fn, unit, K * n, Math.max(1, Math.floor(runs / K))))
  }
  return { ratio: bestLarge / bestSmall, largeMs: bestLarge }
}

/** A text made of `fragments`, a few of them in a random order, repeated. */
const hostile = (fragments: string[]): fc.Arbitrary<string> =>
  fc
    .array(fc.constantFrom(...fragments), { minLength: 1, maxLength: 5 })
    .map((parts) => parts.join(''))

const SPACE = ['\n', '\n\n', ' ', '\t', '\r\n', ' \n', '\u00a0']

interface Case {
  name: string
  fn: (text: string) => unknown
  fragments: string[]
  /** Characters of the smaller text. */
  n: number
  /** Texts known to make a backtracking expression retry, tried first. */
  known: string[]
}

const redactor = createRedactor()
redactor.add('sk-live-0123456789abcdef')

const CASES: Case[] = [
  {
    name: 'prompt-injection check',
    fn: detectPromptInjection,
    fragments: [
      ...SPACE,
      'system',
      'assistant',
      ' :',
      'ignore ',
      'all ',
      'previous ',
      'reveal ',
      'system ',
      'send ',
      'api key ',
      '<|',
      '[INST',
      'you are',
      'x',
    ],
    // The check reads at most 20,000 characters: both texts stay within that.
    n: 2_500,
    known: ['\n', ' \n', '\n\t', 'ignore all '],
  },
  {
    name: 'redactor (registered values and credential patterns)',
    fn: (text) => redactor.redactText(text),
    fragments: [
      ...SPACE,
      'password',
      'api_key',
      'Authorization',
      '"',
      ':',
      '=',
      'Bearer ',
      'Basic',
      'sk-live-01234',
      'aaaaaaaa',
      '\\u0020',
    ],
    n: 64_000,
    known: ['password ', 'Bearer ', '"api_key"\t'],
  },
  {
    name: 'redactor, signed links kept on disk',
    fn: (text) => redactor.redactLinks(text),
    fragments: ['http://', 'https://a', '/', '?', '#', 'sig=', '&', 'x', ' ', '"'],
    n: 64_000,
    known: ['http://', 'https://a/'],
  },
  {
    name: 'signed-link redaction',
    fn: redactSignedLinks,
    fragments: ['http://', 'https://a', '/p', '?', '#', 'sig=1', '&', 'x'],
    n: 64_000,
    known: ['http://', 'http://a#?'],
  },
  {
    name: 'credential pre-check of JSON text',
    fn: mayHoldCredential,
    fragments: [...SPACE, '\\n', '\\u000b', 'password', 'token', 'bearer', '"', '\\"', 'x'],
    n: 64_000,
    known: ['password\\n', 'bearer '],
  },
  {
    name: 'sentence splitting, headline, summary, snippet, word count',
    fn: (text) => [
      splitSentences(text),
      deriveHeadline(text),
      deriveSummary(text),
      makeSnippet(text),
      countWords(text),
    ],
    fragments: [...SPACE, '.', '!', '?', '…', '。', 'U.S.', 'J.', 'Dr.', '”', '(', 'word', ','],
    n: 64_000,
    known: ['a.', ' ', ',', 'U.S.'],
  },
  {
    name: "a server error's words (refusal, rate limit)",
    fn: codeFromWords,
    fragments: [...SPACE, 'unauthori', 'rate', ' limit', 'api', 'invalid ', 'token', 'x'],
    n: 64_000,
    known: ['rate ', 'invalid '],
  },
]

describe('regular expressions on server text take time linear in the text', () => {
  for (const { name, fn, fragments, n, known } of CASES) {
    it(name, () => {
      fc.assert(
        fc.property(hostile(fragments), (unit) => {
          const { ratio, largeMs } = growth(fn, unit, n)
          if (largeMs < NOISE_FLOOR_MS) return
          expect(
            ratio,
            `${JSON.stringify(unit)}: ${K}× the text took ${ratio.toFixed(1)}× (${largeMs.toFixed(2)} ms)`,
          ).toBeLessThan(MAX_RATIO)
        }),
        { numRuns: 6, examples: known.map((unit) => [unit]) },
      )
    })
  }

  it('the measure catches a quadratic expression, above the noise floor', () => {
    // Irregexp tries every start of a run of spaces and reads it to its end, looking for "x".
    const quadratic = (text: string) => / +x/.test(text)
    const { ratio, largeMs } = growth(quadratic, ' ', 2_000)
    expect(largeMs).toBeGreaterThan(NOISE_FLOOR_MS)
    expect(ratio).toBeGreaterThan(MAX_RATIO)
  })
})
