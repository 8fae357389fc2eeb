import { describe, expect, it } from 'vitest'
import type { ProtocolEntry } from '../../../../shared/ipc/workbench'
import { NO_LOG_FILTER, toJsonl, visibleEntries } from './protocol-view'

const entry = (seq: number, extra: Partial<ProtocolEntry>): ProtocolEntry => ({
  seq,
  at: 1000 + seq,
  direction: 'out',
  kind: 'request',
  size: 10,
  text: '{}',
  truncated: false,
  ...extra,
})

const log = [
  entry(1, { method: 'tools/list', id: 1 }),
  entry(2, { direction: 'in', kind: 'response', id: 1, text: '{"tools":[]}' }),
  entry(3, {
    direction: 'in',
    kind: 'notification',
    method: 'notifications/message',
    level: 'warning',
  }),
  entry(4, { direction: 'stderr', kind: 'stderr', text: 'Server started' }),
]

describe('visibleEntries', () => {
  it('keeps everything without a filter, in order', () => {
    expect(visibleEntries(log, NO_LOG_FILTER, new Set()).map((e) => e.seq)).toEqual([1, 2, 3, 4])
  })

  it('filters by direction and by text in method, level and message', () => {
    expect(visibleEntries(log, { text: '', direction: 'in' }, new Set()).map((e) => e.seq)).toEqual(
      [2, 3],
    )
    expect(
      visibleEntries(log, { text: 'WARN', direction: 'all' }, new Set()).map((e) => e.seq),
    ).toEqual([3])
    expect(
      visibleEntries(log, { text: 'started', direction: 'all' }, new Set()).map((e) => e.seq),
    ).toEqual([4])
  })

  it('shows pinned entries first even when the filter hides them', () => {
    const shown = visibleEntries(log, { text: 'started', direction: 'all' }, new Set([1]))
    expect(shown.map((e) => e.seq)).toEqual([1, 4])
  })
})

describe('toJsonl', () => {
  it('writes one parseable object per line', () => {
    const lines = toJsonl(log).trimEnd().split('\n')
    expect(lines).toHaveLength(4)
    expect(JSON.parse(lines[2]!)).toMatchObject({ seq: 3, level: 'warning' })
    expect(toJsonl([])).toBe('')
  })
})
