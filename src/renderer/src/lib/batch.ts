/** Items collected and handed over together (see {@link batched}). */
export interface Batch<T> {
  push: (item: T) => void
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
  return {
    push(item) {
      waiting.push(item)
      timer ??= setTimeout(() => {
        timer = undefined
        const items = waiting
        waiting = []
        flush(items)
      }, delayMs)
    },
    cancel() {
      clearTimeout(timer)
      timer = undefined
      waiting = []
    },
  }
}
