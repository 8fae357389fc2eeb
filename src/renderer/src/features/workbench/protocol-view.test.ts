import { describe, expect, it } from 'vitest'
import type { ProtocolEntry } from '#shared/ipc/workbench'
import {
  NO_LOG_FILTER,
  countLabel,
  emptyLogText,
  entryLabel,
  prettyMessage,
  toJsonl,
  togglePinned,
  visibleEntries,
} from './protocol-view'

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

describe('togglePinned', () => {
  it('pins an entry, unpins it again, and leaves the pins it was given alone', () => {
    const none: ReadonlySet<number> = new Set()
    const one = togglePinned(none, 3)
    expect([...one]).toEqual([3])
    expect([...togglePinned(one, 3)]).toEqual([])
    expect([...togglePinned(one, 1)].sort()).toEqual([1, 3])
    expect(none.size).toBe(0)
    expect([...one]).toEqual([3])
  })
})

describe('the table texts', () => {
  it('counts the messages, and says of how many when a filter hides some', () => {
    expect(countLabel(4, 4)).toBe('4 messages')
    expect(countLabel(1, 1)).toBe('1 message')
    expect(countLabel(2, 4)).toBe('2 of 4 messages')
  })

  it('names a row by direction, method or kind, id and preview', () => {
    expect(entryLabel(log[0]!)).toBe('out tools/list #1')
    expect(entryLabel(log[3]!)).toBe('stderr stderr')
    expect(entryLabel({ ...log[1]!, truncated: true })).toBe('in response #1 (preview)')
  })

  it('says why the table is empty, for the own-calls filter too', () => {
    expect(emptyLogText(false)).toMatch(/^No messages yet/)
    expect(emptyLogText(true)).toMatch(/^No calls of yours yet/)
  })

  it('indents a JSON message and leaves a cut one as it came', () => {
    expect(prettyMessage('{"a":[1]}')).toBe('{\n  "a": [\n    1\n  ]\n}')
    expect(prettyMessage('{"a":[1')).toBe('{"a":[1')
  })
})
