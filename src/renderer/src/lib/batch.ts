/** Items collected and handed over together (see {@link batched}). */
export interface Batch<T> {
  push: (item: T) => void
  /** Hands over what is waiting now (something that must come after it is about to happen). */
  flush: () => void
  /** Drops what is waiting; nothing is handed over afterwards. */
  cancel: () => void
}

/**
 * Collects items and hands them to `flush` together, `delayMs` after the first of a burst: a
 * search over 500 servers sends 500 progress events within a second or two, and one state
 * update per event would re-render the results 500 times.
 */
export function batched<T>(flush: (items: T[]) => void, delayMs = 50): Batch<T> {
  let waiting: T[] = []
  let timer: ReturnType<typeof setTimeout> | undefined
  const handOver = (): void => {
    clearTimeout(timer)
    timer = undefined
    const items = waiting
    waiting = []
    if (items.length > 0) flush(items)
  }
  return {
    push(item) {
      waiting.push(item)
      timer ??= setTimeout(handOver, delayMs)
    },
    flush: handOver,
    cancel() {
      clearTimeout(timer)
      timer = undefined
      waiting = []
    },
  }
}
