import { ConsoleError } from '#shared/errors'

/** The error a server's part of an operation ends with when the whole operation is cancelled. */
export function cancelledError(server: string): ConsoleError {
  return new ConsoleError({
    code: 'cancelled',
    origin: 'local',
    server,
    message: `server ${server}: cancelled before it answered`,
  })
}

/** The error a server's part ends with when it used up its time budget. */
export function budgetError(server: string, budgetMs: number): ConsoleError {
  return new ConsoleError({
    code: 'timeout',
    origin: 'local',
    server,
    message:
      `server ${server} did not answer within ${budgetMs} ms; it is slow or stuck — ` +
      `check its health, or raise its timeoutMs in rag-mcp.json`,
  })
}

/**
 * Runs one server's part of an operation within `budgetMs`, cancellable through `outer`. It
 * settles as soon as the work answers, the budget runs out (`timeout`) or `outer` aborts
 * (`cancelled`); in the last two cases the signal given to the work aborts too, so in-flight
 * calls stop. The work's late outcome is ignored.
 */
export async function withBudget<T>(
  server: string,
  budgetMs: number,
  outer: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  if (outer?.aborted) throw cancelledError(server)
  const controller = new AbortController()
  let timer: ReturnType<typeof setTimeout> | undefined
  let onAbort: (() => void) | undefined
  const stop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = budgetError(server, budgetMs)
      controller.abort(error)
      reject(error)
    }, budgetMs)
    onAbort = () => {
      const error = cancelledError(server)
      controller.abort(error)
      reject(error)
    }
    outer?.addEventListener('abort', onAbort, { once: true })
  })
  const running = work(controller.signal)
  running.catch(() => undefined)
  try {
    return await Promise.race([running, stop])
  } finally {
    clearTimeout(timer)
    if (onAbort) outer?.removeEventListener('abort', onAbort)
  }
}

/**
 * Runs `task` over `items` with at most `limit` in flight; results keep the input order.
 * `onResult` is called as each one finishes.
 */
export async function mapBounded<I, O>(
  items: readonly I[],
  limit: number,
  task: (item: I, index: number) => Promise<O>,
  onResult?: (result: O, index: number) => void,
): Promise<O[]> {
  const results: O[] = new Array(items.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++
      results[index] = await task(items[index] as I, index)
      onResult?.(results[index] as O, index)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker))
  return results
}
