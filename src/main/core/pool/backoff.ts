/** Exponential backoff with jitter for reconnect attempts. */
export interface BackoffOptions {
  /** Delay before the first retry. */
  initialMs: number
  /** Upper bound of any delay. */
  maxMs: number
  /** Growth per attempt. */
  factor: number
  /** Spread as a share of the delay: 0.2 → anywhere within ±20 %. */
  jitter: number
}

export const DEFAULT_BACKOFF: BackoffOptions = {
  initialMs: 500,
  maxMs: 60_000,
  factor: 2,
  jitter: 0.2,
}

/**
 * Delay before retry number `attempt` (1 = the first retry): `initialMs · factor^(attempt-1)`,
 * capped at `maxMs`, spread by ±jitter so servers restarted together are not hit in lockstep.
 */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions,
  random: () => number = Math.random,
): number {
  const exponent = Math.max(0, attempt - 1)
  const base = Math.min(options.maxMs, options.initialMs * options.factor ** exponent)
  const spread = 1 - options.jitter + 2 * options.jitter * random()
  return Math.max(0, Math.round(Math.min(options.maxMs, base * spread)))
}
