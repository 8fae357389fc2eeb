import { afterAll, vi } from 'vitest'

/**
 * Runs around every file of the unit project, which shares its workers' modules between files
 * (`isolate: false` in vitest.config.ts). A file that leaves the clock faked would freeze the
 * timers of every file after it, and the run would hang: such a file fails instead, by name.
 */
afterAll(() => {
  if (!vi.isFakeTimers()) return
  vi.useRealTimers()
  throw new Error('this file left fake timers on: call vi.useRealTimers() in its afterAll')
})
