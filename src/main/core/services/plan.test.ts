import { describe, expect, it } from 'vitest'
import type { ServerConfig } from '#shared/config/schema'
import type { Profile } from '#shared/model/user'
import { testConfig } from '#test/support/dialects/recording-session'
import { planTargets, type PlanDeps } from './plan'
import { mergeSources } from './sources'
import { actingUser } from './targets'

const servers: ServerConfig[] = [
  testConfig('docs', {
    groups: ['users'],
    dataSources: [
      { id: 'handbook', defaultSelected: true },
      { id: 'legal', groups: ['legal'], defaultSelected: true, authMode: 'capability' },
    ],
  }),
  testConfig('legalOnly', { groups: ['legal'] }),
  testConfig('off', { enabled: false }),
  testConfig('quiet', { ui: { defaultSelected: false } }),
]

const sales: Profile = {
  id: 'sales',
  name: 'Sales',
  userId: 'alice@example.com',
  sessionTags: [],
  groups: ['users'],
}

function deps(remembered: Record<string, Record<string, boolean>> = {}): PlanDeps {
  return {
    registry: {
      current: () => ({
        source: { kind: 'embedded', files: [], label: 'test' },
        servers,
        hashes: {},
        warnings: [],
      }),
      server: (id) => servers.find((s) => s.id === id),
    },
    sourcesOf: (config, profile) =>
      mergeSources({
        config,
        discovered: null,
        remembered: remembered[config.id] ?? {},
        user: actingUser(profile),
      }),
  }
}

describe('planTargets', () => {
  it('uses the remembered selection of every visible enabled server when none is given', () => {
    const targets = planTargets(deps({ quiet: { '*': true } }), sales)
    expect(targets.map((t) => [t.server, t.sources])).toEqual([
      ['docs', ['handbook']],
      ['quiet', []],
    ])
    expect(targets[0]?.authModes.legal).toBe('capability')
  })

  it('leaves out a server whose sources are all off', () => {
    const targets = planTargets(deps({ docs: { handbook: false } }), sales)
    expect(targets.map((t) => t.server)).toEqual([])
  })

  it('reports named servers that are unknown, disabled or hidden instead of calling them', () => {
    const targets = planTargets(deps(), sales, { nope: [], off: [], legalOnly: [], docs: [] })
    expect(targets.map((t) => [t.server, t.problem?.code])).toEqual([
      ['docs', undefined],
      ['legalOnly', 'invalid_argument'],
      ['off', 'not_connected'],
      ['nope', 'not_found'],
    ])
    expect(targets[1]?.problem?.message).toMatch(/hidden from profile "Sales"/)
    // Marked, so an evaluation does not count it as the server failing.
    expect(targets[1]?.problem?.details).toEqual({ hiddenFromProfile: true })
    expect(targets[2]?.problem?.details).toBeUndefined()
  })

  it('drops a named source hidden from the profile and says so', () => {
    const [docs] = planTargets(deps(), sales, { docs: ['handbook', 'legal', 'unknown-yet'] })
    expect(docs?.sources).toEqual(['handbook', 'unknown-yet'])
    expect(docs?.dropped.map((d) => d.sourceId)).toEqual(['legal'])
    const [only] = planTargets(deps(), sales, { docs: ['legal'] })
    expect(only?.problem?.message).toMatch(/none of the selected sources is visible/)
    expect(only?.problem?.details).toEqual({ hiddenFromProfile: true })
  })
})
