import { describe, expect, it } from 'vitest'
import type { AccessCheck, AccessResult, LinkVerdict } from '#shared/model/rag'
import { batchRows, hasAccessCell, recheckedBatch, shownLine, toggledVerdict } from './check-all'

const check = (verdict: LinkVerdict, extra: Partial<AccessCheck> = {}): AccessCheck => ({
  user: { userId: 'ana', sessionTags: [], groups: [] },
  verdict,
  explanation: verdict,
  checkedAt: 0,
  cached: false,
  ...extra,
})
const access = (checked: boolean, hasAccess: boolean | null): AccessResult => ({
  server: 'kb',
  segmentId: 'doc#0',
  checked,
  hasAccess,
  violations: [],
})

describe("a batch's rows", () => {
  const targets = [{ url: 'https://d/a' }, { url: 'https://d/b' }]

  it('are the arrived checks, numbered, without targets while the batch runs', () => {
    const rows = batchRows(undefined, [check('expired'), check('ok')], targets)
    expect(rows.map((r) => [r.n, r.check.verdict, r.target])).toEqual([
      [1, 'expired', undefined],
      [2, 'ok', undefined],
    ])
  })

  it('are the results in target order, each beside its target, once done', () => {
    const rows = batchRows([check('ok'), check('forbidden')], [check('forbidden')], targets)
    expect(rows.map((r) => [r.n, r.check.verdict, r.target])).toEqual([
      [1, 'ok', targets[0]],
      [2, 'forbidden', targets[1]],
    ])
  })
})

describe('the verdict filter', () => {
  it('turns a class on, and off again, in a new set', () => {
    const none = new Set<LinkVerdict>()
    const on = toggledVerdict(none, 'leak')
    expect([...on]).toEqual(['leak'])
    expect([...toggledVerdict(on, 'expired')]).toEqual(['leak', 'expired'])
    expect([...toggledVerdict(on, 'leak')]).toEqual([])
    expect(none.size).toBe(0)
  })

  it('says how many rows it shows', () => {
    expect(shownLine(12, 12)).toBe('12 verdicts')
    expect(shownLine(1, 1)).toBe('1 verdict')
    expect(shownLine(3, 12)).toBe('3 of 12 verdicts')
  })
})

describe('the "Has access" cell', () => {
  it('says yes or no only when the server answered', () => {
    expect(hasAccessCell(check('ok', { access: access(true, true) }))).toBe('yes')
    expect(hasAccessCell(check('forbidden', { access: access(true, false) }))).toBe('no')
    expect(hasAccessCell(check('ok', { access: access(true, null) }))).toBe('—')
    expect(hasAccessCell(check('ok', { access: access(false, false) }))).toBe('—')
    expect(hasAccessCell(check('ok'))).toBe('—')
  })
})

describe('checking a batch again', () => {
  it('is a new batch of the same citations as another profile', () => {
    const first = { batchId: 'b1', label: 'links', targets: [{ url: 'https://d/a' }], startedAt: 1 }
    expect(recheckedBatch(first, 'carol', 'b2', 5)).toEqual({
      batchId: 'b2',
      label: 'links',
      targets: first.targets,
      startedAt: 5,
      profileId: 'carol',
    })
    expect(first).not.toHaveProperty('profileId')
  })
})
