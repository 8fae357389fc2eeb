import { describe, expect, it } from 'vitest'
import type { Hit } from '#shared/model/rag'
import { RawPayloads } from './raw-payloads'

const hit = (server: string, id: string, raw: unknown, sourceId?: string): Hit => ({
  server,
  id,
  ...(sourceId ? { sourceId } : {}),
  title: id,
  snippet: '',
  derived: { title: false, summary: false },
  flags: [],
  violations: [],
  raw,
})

describe('RawPayloads', () => {
  it('hands the hits back without raw and gives each raw payload on request', () => {
    const store = new RawPayloads()
    store.begin('s1')
    const hits = store.hold('s1', [hit('a', '1', { text: 'one' }), hit('b', '1', { text: 'two' })])
    expect(hits.every((h) => !('raw' in h))).toBe(true)
    expect(hits[0]).toMatchObject({ server: 'a', id: '1', title: '1' })
    expect(store.get('s1', { server: 'a', id: '1' })).toEqual({ held: true, raw: { text: 'one' } })
    expect(store.get('s1', { server: 'b', id: '1' })).toEqual({ held: true, raw: { text: 'two' } })
  })

  it('tells apart hits with the same id from two sources of one server', () => {
    const store = new RawPayloads()
    store.begin('s1')
    store.hold('s1', [hit('a', '1', 'from x', 'x'), hit('a', '1', 'from y', 'y')])
    expect(store.get('s1', { server: 'a', sourceId: 'y', id: '1' })).toEqual({
      held: true,
      raw: 'from y',
    })
  })

  it('holds nothing for a search that never began, and answers held: false for it', () => {
    const store = new RawPayloads()
    expect(store.hold('nope', [hit('a', '1', 'x')])).toHaveLength(1)
    expect(store.get('nope', { server: 'a', id: '1' })).toEqual({ held: false })
  })

  it('keeps the last searches only: the oldest is dropped when one more begins', () => {
    const store = new RawPayloads({ searches: 2, maxChars: 1_000_000 })
    for (const id of ['s1', 's2', 's3']) {
      store.begin(id)
      store.hold(id, [hit('a', '1', id)])
    }
    expect(store.get('s1', { server: 'a', id: '1' })).toEqual({ held: false })
    expect(store.get('s2', { server: 'a', id: '1' })).toEqual({ held: true, raw: 's2' })
    expect(store.get('s3', { server: 'a', id: '1' })).toEqual({ held: true, raw: 's3' })
  })

  it('drops older searches to stay under its size cap, and keeps what fits of one too large alone', () => {
    const big = 'x'.repeat(400)
    const store = new RawPayloads({ searches: 10, maxChars: 1_000 })
    store.begin('old')
    store.hold('old', [hit('a', '1', big)])
    store.begin('new')
    store.hold('new', [hit('a', '1', big), hit('a', '2', big), hit('a', '3', big)])
    expect(store.get('old', { server: 'a', id: '1' })).toEqual({ held: false })
    expect(store.get('new', { server: 'a', id: '1' })).toEqual({ held: true, raw: big })
    expect(store.get('new', { server: 'a', id: '2' })).toEqual({ held: true, raw: big })
    expect(store.get('new', { server: 'a', id: '3' })).toEqual({ held: false })
  })

  it('starts afresh when a search id is used again', () => {
    const store = new RawPayloads()
    store.begin('s1')
    store.hold('s1', [hit('a', '1', 'first run')])
    store.begin('s1')
    expect(store.get('s1', { server: 'a', id: '1' })).toEqual({ held: false })
  })

  it('keeps a copy: changing the payload afterwards changes nothing held', () => {
    const store = new RawPayloads()
    const raw = { text: 'as sent' }
    store.begin('s1')
    store.hold('s1', [hit('a', '1', raw)])
    raw.text = 'changed'
    expect(store.get('s1', { server: 'a', id: '1' })).toEqual({
      held: true,
      raw: { text: 'as sent' },
    })
  })
})
