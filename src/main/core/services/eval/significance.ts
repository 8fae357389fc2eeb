/** Up to this many pairs every sign assignment is tried (2^16 = 65,536): an exact test. */
const EXACT_UP_TO = 16
/** Above it, this many random assignments (the p-value's standard error ≤ 0.007). */
export const DEFAULT_PERMUTATIONS = 5000
/** Fixed, so the same two runs always give the same p-value. */
const SEED = 0x5eed

// Sums that differ by float noise only must count as equal (the observed one among them).
const TOLERANCE = 1e-9

/**
 * Two-sided paired randomization (permutation) test of mean(b − a) ≠ 0. Under the null
 * hypothesis each pair's difference is as likely to have either sign; p is the share of sign
 * assignments whose |mean difference| is at least the observed one. Exact for up to 16 pairs;
 * above, `permutations` seeded random assignments (the observed one counted, so p > 0).
 * No pairs, or no difference at all: p = 1.
 */
export function pairedRandomizationTest(
  a: readonly number[],
  b: readonly number[],
  permutations = DEFAULT_PERMUTATIONS,
): number {
  if (a.length !== b.length) throw new Error('paired test: both runs need the same queries')
  const diffs = a.map((value, index) => b[index]! - value).filter((d) => d !== 0)
  if (diffs.length === 0) return 1
  const observed = Math.abs(sum(diffs))
  const slack = TOLERANCE * Math.max(1, observed)
  const atLeast = (total: number): boolean => Math.abs(total) >= observed - slack
  if (diffs.length <= EXACT_UP_TO) {
    let count = 0
    const assignments = 2 ** diffs.length
    for (let mask = 0; mask < assignments; mask++) {
      let total = 0
      for (let i = 0; i < diffs.length; i++) total += mask & (1 << i) ? -diffs[i]! : diffs[i]!
      if (atLeast(total)) count++
    }
    return count / assignments
  }
  const random = xorshift32(SEED)
  const values = Float64Array.from(diffs)
  let count = 1
  for (let round = 0; round < permutations; round++) {
    let total = 0
    let bits = 0
    // One 32-bit draw gives the signs of 32 pairs.
    for (let i = 0; i < values.length; i++) {
      if (i % 32 === 0) bits = random()
      total += bits & 1 ? -values[i]! : values[i]!
      bits >>>= 1
    }
    if (atLeast(total)) count++
  }
  return count / (permutations + 1)
}

// Pairs with no difference add nothing to any assignment's sum, so dropping them changes
// neither the observed statistic nor its distribution; sums stand in for means (same n).
const sum = (values: readonly number[]): number => values.reduce((s, v) => s + v, 0)

/** Marsaglia's xorshift32: small, seeded, uniform enough for sign flips; 32 random bits. */
function xorshift32(seed: number): () => number {
  let state = seed >>> 0 || 1
  return () => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    state >>>= 0
    return state
  }
}
