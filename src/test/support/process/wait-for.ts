import { vi } from 'vitest'
import { SAFETY_NET_MS } from './limits'

/**
 * Polls `probe` until it returns a value (not undefined or false) and resolves with it; fails
 * naming `what` after `timeoutMs`, a safety net, not a measurement. Prefer an event where the
 * code emits one (`untilStatus`, `whenState`).
 */
export async function waitFor<T>(
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  what = 'condition',
  timeoutMs = SAFETY_NET_MS,
): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await probe()
      if (value === undefined || value === false) {
        throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
      }
      return value
    },
    { timeout: timeoutMs, interval: 20 },
  )
}
