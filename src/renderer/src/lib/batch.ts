/** Items collected and handed over together (see {@link batched}). */
export interface Batch<T> {
  push: (item: T) => void
  /** Hands over what is waiting now (something that must come after it is about to happen). */
  flush: () => void
  /** Drops what is waiting; nothing is handed over afterwards. */
  cancel: () => void
}

/** The longest a batch waits, however busy the page: results still move once a second. */
export const MAX_BATCH_DELAY_MS = 1000

/**
 * Collects items and hands them to `flush` together, `delayMs` after the first of a burst: a
 * search over 500 servers sends 500 progress events within a second or two, and one state
 * update per event would re-render the results 500 times. A timer that fires late means the
 * page was busy (rendering the last batch, reading messages): the next batch then waits twice
 * that long (at most {@link MAX_BATCH_DELAY_MS}), so rendering never takes the whole page.
 */
export function batched<T>(
  flush: (items: T[]) => void,
  delayMs = 50,
  now: () => number = () => performance.now(),
): Batch<T> {
  let waiting: T[] = []
  let timer: ReturnType<typeof setTimeout> | undefined
  let wait = delayMs
  let due = 0
  const handOver = (): void => {
    clearTimeout(timer)
    timer = undefined
    const items = waiting
    waiting = []
    if (items.length > 0) flush(items)
  }
  const onTimer = (): void => {
    wait = Math.min(MAX_BATCH_DELAY_MS, Math.max(delayMs, 2 * (now() - due)))
    handOver()
  }
  return {
    push(item) {
      waiting.push(item)
      if (timer !== undefined) return
      due = now() + wait
      timer = setTimeout(onTimer, wait)
    },
    flush: handOver,
    cancel() {
      clearTimeout(timer)
      timer = undefined
      waiting = []
    },
  }
}
