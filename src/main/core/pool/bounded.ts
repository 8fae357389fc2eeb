import type { Clock } from './clock'
import type { CallContext } from './call-context'

/**
 * Runs `fn` for `context` with a deadline and an optional outside signal. Either one
 * aborts the signal `fn` receives (which the HTTP layer passes to `fetch`, so the request is
 * really cancelled) and settles the result at once, even if `fn` ignores its signal. The
 * context records which of the two it was, so the error is ours, not the server's. A call that
 * fails for any other reason has its signal aborted too.
 */
export function runBounded<T>(
  context: CallContext,
  timeoutMs: number,
  outside: AbortSignal | undefined,
  clock: Clock,
  fn: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController()
  const { signal } = controller
  context.signal = signal
  // One promise settled by whichever comes first (cheaper per call than racing two).
  return new Promise<T>((resolve, reject) => {
    const onOutsideAbort = (): void => {
      if (!context.timedOut) context.cancelled = true
      controller.abort(new Error('cancelled'))
    }
    const timer = clock.setTimeout(() => {
      if (!context.cancelled) context.timedOut = true
      controller.abort(new Error('timed out'))
    }, timeoutMs)
    const settle = (): void => {
      clock.clearTimeout(timer)
      outside?.removeEventListener('abort', onOutsideAbort)
    }
    signal.addEventListener(
      'abort',
      () => {
        settle()
        reject(signal.reason)
      },
      { once: true },
    )
    // Whatever ended the call, nothing it started (an HTTP request) may linger.
    const fail = (error: unknown): void => controller.abort(error)
    if (outside?.aborted) onOutsideAbort()
    else outside?.addEventListener('abort', onOutsideAbort, { once: true })
    if (signal.aborted) return
    let running: Promise<T>
    try {
      running = fn(signal)
    } catch (error) {
      fail(error)
      return
    }
    running.then((value) => {
      settle()
      resolve(value)
    }, fail)
  })
}
