import { describe, expect, it } from 'vitest'
import { FAMILIES, planEndpoints } from '#demo/endpoints'
import { pickFanout } from './fanout-pick'

/** The scale benchmark's registry: 3 processes × 60 endpoints, then 20 stdio servers. */
function registry(): { ids: string[]; latency: Map<string, number>; process: Map<string, number> } {
  const ids: string[] = []
  const latency = new Map<string, number>()
  const process = new Map<string, number>()
  let n = 0
  for (let p = 0; p < 3; p++) {
    for (const endpoint of planEndpoints(60, 0, [100, 150, 200])) {
      const id = `${endpoint.family}-${n++}`
      ids.push(id)
      latency.set(id, endpoint.latencyMs)
      process.set(id, p)
    }
  }
  for (let i = 0; i < 20; i++) ids.push(`rag-tools-stdio-${n++}`)
  return { ids, latency, process }
}

const familyOf = (id: string) => FAMILIES.find((family) => id.startsWith(`${family}-`))!

describe('fan-out pick', () => {
  it('takes each family in its share of the registry', () => {
    const { ids } = registry()
    const picked = pickFanout(ids, 100, familyOf)
    expect(new Set(picked).size).toBe(100)
    for (const family of FAMILIES) {
      const share = (100 * ids.filter((id) => familyOf(id) === family).length) / ids.length
      const taken = picked.filter((id) => familyOf(id) === family).length
      expect(Math.abs(taken - share), family).toBeLessThan(1)
    }
  })

  it('meets every latency class of every demo process in each HTTP/SSE family', () => {
    const { ids, latency, process } = registry()
    const picked = pickFanout(ids, 100, familyOf)
    for (const family of FAMILIES.filter((one) => one !== 'rag-tools-stdio')) {
      const mine = picked.filter((id) => familyOf(id) === family)
      expect(new Set(mine.map((id) => latency.get(id))), family).toEqual(new Set([100, 150, 200]))
      expect(new Set(mine.map((id) => process.get(id))), family).toEqual(new Set([0, 1, 2]))
    }
  })
})
