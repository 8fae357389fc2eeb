import { describe, expect, it } from 'vitest'
import type { ServerDiscovery } from '#shared/model/operations'
import { testSource } from '#test/support/model/servers'
import type { SourceRow } from './server-view'
import { FIRST_ROWS, sourceListView } from './source-list'

const row = (
  id: string,
  selected: boolean,
  extra: Partial<SourceRow['source']> = {},
): SourceRow => ({ source: testSource(id, extra), selected, access: 'open' })

const discovery = (ok: boolean): ServerDiscovery => ({
  server: 'kb',
  ok,
  latencyMs: 1,
  sources: [],
  missing: [],
})

describe('sourceListView', () => {
  it('counts the sources switched on among those the profile may see', () => {
    const rows = [row('a', true), row('b', false), row('c', false, { visible: false })]
    const view = sourceListView(rows, discovery(true), false, false)
    expect(view).toMatchObject({ visible: 2, on: 1, summary: '1 of 2 on' })
  })

  it('says when the list is as configured (discovery failed) and while discovery runs', () => {
    expect(sourceListView([row('a', true)], discovery(false), true, false).summary).toBe(
      '1 of 1 on · as configured · discovering…',
    )
    expect(sourceListView([], undefined, true, false).summary).toBe(' · discovering…')
    expect(sourceListView([], undefined, false, false).summary).toBe('')
  })

  it('shows the Contents columns only when some source has counts or an index time', () => {
    expect(sourceListView([row('a', true)], undefined, false, false).detailed).toBe(false)
    const counted = [row('a', true), row('b', true, { lastIndexed: '2026-01-01T00:00:00Z' })]
    expect(sourceListView(counted, undefined, false, false).detailed).toBe(true)
  })

  it('lists the first rows until expanded', () => {
    const rows = Array.from({ length: FIRST_ROWS + 3 }, (_, i) => row(`s${i}`, true))
    expect(sourceListView(rows, undefined, false, false).shown).toHaveLength(FIRST_ROWS)
    expect(sourceListView(rows, undefined, false, true).shown).toHaveLength(FIRST_ROWS + 3)
  })
})
