import type { Clock } from './clock'
import type { CallContext } from './call-context'

/**
 * Runs `fn` for `context` with a deadline and an optional outside signal. Either one
 * aborts the signal `fn` receives (which the HTTP layer passes to `fetch`, so the request is
 * really cancelled) and settles the result at once, even if `fn` ignores its signal. The
 * context records which of the two it was, so the error is ours, not the server's. A call that
 * fails for any other reason has its signal aborted too.
 */
export async function runBounded<T>(
  context: CallContext,
  timeoutMs: number,
  outside: AbortSignal | undefined,
  clock: Clock,
  fn: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController()
  const { signal } = controller
  const aborted = new Promise<never>((_, reject) => {
    signal.addEventListener('abort', () => reject(signal.reason), { once: true })
  })
  aborted.catch(() => {})
  const onOutsideAbort = (): void => {
    if (!context.timedOut) context.cancelled = true
    controller.abort(new Error('cancelled'))
  }
  if (outside?.aborted) onOutsideAbort()
  else outside?.addEventListener('abort', onOutsideAbort, { once: true })
  const timer = clock.setTimeout(() => {
    if (!context.cancelled) context.timedOut = true
    controller.abort(new Error('timed out'))
  }, timeoutMs)
  context.signal = signal
  try {
    return await Promise.race([fn(signal), aborted])
  } catch (error) {
    // Whatever ended the call, nothing it started (an HTTP request) may linger.
    controller.abort(error)
    throw error
  } finally {
    clock.clearTimeout(timer)
    outside?.removeEventListener('abort', onOutsideAbort)
  }
}
