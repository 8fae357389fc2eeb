import { describe, expect, it } from 'vitest'
import type { Resource } from '#shared/model/rag'
import type { ActingUser } from '#shared/model/user'
import { testConfig } from '#test/support/dialects/recording-session'
import { ALL_SOURCES, mergeSources, sourcesToSend } from './sources'

const sales: ActingUser = {
  userId: 'alice@example.com',
  sessionTags: [],
  groups: ['users', 'sales'],
}

const config = testConfig('docs', {
  dataSources: [
    { id: 'legal', name: 'Legal Docs', groups: ['legal'], defaultSelected: true },
    { id: 'handbook', name: 'Employee Handbook', defaultSelected: true },
    { id: 'sales', name: 'Sales Playbooks', groups: ['sales'], defaultSelected: false },
  ],
})

function resource(id: string, extra: Partial<Resource> = {}): Resource {
  return {
    server: 'docs',
    id,
    name: `${id} (server name)`,
    authRequired: true,
    groups: [],
    scopes: [],
    defaultSelected: false,
    ...extra,
  }
}

describe('mergeSources', () => {
  it('takes which sources exist from discovery and names, order and defaults from the config', () => {
    const { sources } = mergeSources({
      config,
      discovered: [resource('wiki'), resource('sales'), resource('handbook')],
      remembered: {},
      user: sales,
    })
    expect(sources.map((s) => [s.id, s.name, s.selected])).toEqual([
      ['handbook', 'Employee Handbook', true],
      ['sales', 'Sales Playbooks', false],
      ['wiki', 'wiki (server name)', false],
    ])
  })

  it('lets a remembered toggle win over the default', () => {
    const { sources } = mergeSources({
      config,
      discovered: [resource('handbook'), resource('sales')],
      remembered: { handbook: false, sales: true },
      user: sales,
    })
    expect(sources.filter((s) => s.selected).map((s) => s.id)).toEqual(['sales'])
  })

  it('reports a selected source the server no longer lists as missing', () => {
    const { sources, missing } = mergeSources({
      config,
      discovered: [resource('sales')],
      remembered: { 'old-wiki': true, dropped: false },
      user: sales,
    })
    expect(missing).toEqual(['handbook', 'old-wiki'])
    expect(sources.map((s) => s.id)).toEqual(['sales'])
  })

  it('never selects or reports a source hidden from the profile by its config groups', () => {
    const { sources } = mergeSources({
      config,
      discovered: [resource('legal'), resource('handbook')],
      remembered: { legal: true },
      user: sales,
    })
    expect(sources.find((s) => s.id === 'legal')).toMatchObject({ visible: false, selected: false })
    const gone = mergeSources({ config, discovered: [], remembered: {}, user: sales })
    expect(gone.missing).not.toContain('legal')
  })

  it('without discovery lists the config sources plus earlier toggles, and reports nothing missing', () => {
    const { sources, missing } = mergeSources({
      config,
      discovered: null,
      remembered: { doc_42: true },
      user: sales,
    })
    expect(sources.map((s) => s.id)).toEqual(['legal', 'handbook', 'sales', 'doc_42'])
    expect(sources.find((s) => s.id === 'doc_42')?.selected).toBe(true)
    expect(missing).toEqual([])
  })

  it('gives a server that names no sources one implicit source, selected by default', () => {
    const { sources } = mergeSources({
      config: testConfig('plain'),
      discovered: null,
      remembered: {},
      user: sales,
    })
    expect(sources).toMatchObject([{ id: ALL_SOURCES, selected: true, visible: true }])
  })

  it('selects nothing by default on a server whose ui.defaultSelected is false', () => {
    const off = testConfig('off', { ui: { defaultSelected: false } })
    const merged = mergeSources({ config: off, discovered: null, remembered: {}, user: sales })
    expect(merged.sources[0]?.selected).toBe(false)
    const toggled = mergeSources({
      config: off,
      discovered: null,
      remembered: { [ALL_SOURCES]: true },
      user: sales,
    })
    expect(toggled.sources[0]?.selected).toBe(true)
  })
})

describe('sourcesToSend', () => {
  it('turns the implicit source into "no filter"', () => {
    expect(sourcesToSend([ALL_SOURCES])).toEqual([])
    expect(sourcesToSend(['a', 'b'])).toEqual(['a', 'b'])
  })
})
