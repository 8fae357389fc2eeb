import { describe, expect, it } from 'vitest'
import type { ProtocolEntry } from '#shared/ipc/workbench'
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
  entry(1, { method: 'tools/list', id: 1, operation: 'workbench' }),
  entry(2, {
    direction: 'in',
    kind: 'response',
    id: 1,
    text: '{"tools":[]}',
    operation: 'workbench',
  }),
  entry(3, {
    direction: 'in',
    kind: 'notification',
    method: 'notifications/message',
    level: 'warning',
  }),
  entry(4, { direction: 'stderr', kind: 'stderr', text: 'Server started' }),
]

describe('visibleEntries', () => {
  const seqs = (filter: Partial<typeof NO_LOG_FILTER>, pinned: number[] = []) =>
    visibleEntries(log, { ...NO_LOG_FILTER, ...filter }, new Set(pinned)).map((e) => e.seq)

  it('keeps everything without a filter, newest first', () => {
    expect(seqs({})).toEqual([4, 3, 2, 1])
  })

  it('filters by direction and by text in method, level and message', () => {
    expect(seqs({ direction: 'in' })).toEqual([3, 2])
    expect(seqs({ text: 'WARN' })).toEqual([3])
    expect(seqs({ text: 'started' })).toEqual([4])
  })

  it("keeps only the Workbench's own calls when asked", () => {
    expect(seqs({ mine: true })).toEqual([2, 1])
  })

  it('shows pinned entries first even when the filter hides them', () => {
    expect(seqs({ text: 'started' }, [1])).toEqual([1, 4])
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
