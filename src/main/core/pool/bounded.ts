import type { Clock } from './clock'
import type { CallContext } from './call-context'

/**
 * Runs `fn` for `context` with a deadline and an optional outside signal. Either one
 * aborts the signal `fn` receives (which the HTTP layer passes to `fetch`, so the request is
 * really cancelled) and settles the result at once, even if `fn` ignores its signal. The
 * context records which of the two it was, so the error is ours, not the server's. A call that
 * fails for any other reason has its signal aborted too. While the context is held
 * (`context.hold`: a person answers the server's form) the deadline stands still.
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
  // One promise settled by whichever comes first (cheaper per call than racing two), without a
  // listener on our own signal: whoever aborts it also rejects.
  return new Promise<T>((resolve, reject) => {
    let settled = false
    const settle = (): boolean => {
      if (settled) return false
      settled = true
      clock.clearTimeout(timer)
      outside?.removeEventListener('abort', onOutsideAbort)
      return true
    }
    const abort = (reason: unknown): void => {
      if (!settled) controller.abort(reason)
      if (settle()) reject(signal.reason)
    }
    const onOutsideAbort = (): void => {
      if (!context.timedOut) context.cancelled = true
      abort(new Error('cancelled'))
    }
    const expire = (): void => {
      if (!context.cancelled) context.timedOut = true
      abort(new Error('timed out'))
    }
    let timer = clock.setTimeout(expire, timeoutMs)
    let left = timeoutMs
    let since = clock.now()
    let holds = 0
    context.hold = () => {
      if (settled) return () => {}
      if (holds++ === 0) {
        clock.clearTimeout(timer)
        left -= clock.now() - since
      }
      let released = false
      return () => {
        if (released || settled) return
        released = true
        if (--holds > 0) return
        since = clock.now()
        timer = clock.setTimeout(expire, Math.max(0, left))
      }
    }
    if (outside?.aborted) return onOutsideAbort()
    outside?.addEventListener('abort', onOutsideAbort, { once: true })
    // Whatever ended the call, nothing it started (an HTTP request) may linger.
    let running: Promise<T>
    try {
      running = fn(signal)
    } catch (error) {
      abort(error)
      return
    }
    running.then((value) => {
      if (settle()) resolve(value)
    }, abort)
  })
}
