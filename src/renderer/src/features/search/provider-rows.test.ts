import { describe, expect, it } from 'vitest'
import { providerRowHeights } from './ProviderColumns'

describe('providerRowHeights', () => {
  it('gives rows of providers without hits a small box and the rest of the height to hits', () => {
    // 600 px: one row with hits, one without; 10 px between them.
    expect(providerRowHeights([true, false], 600)).toEqual([478, 112])
    expect(providerRowHeights([true, true, false], 600)).toEqual([234, 234, 112])
  })

  it('keeps rows with hits usable when many are listed (the grid scrolls)', () => {
    expect(providerRowHeights([true, true, true, true], 600)).toEqual([220, 220, 220, 220])
    expect(providerRowHeights([false], 600)).toEqual([112])
  })
})
