import { describe, expect, it } from 'vitest'
import { SNIPPET_MAX_CHARS } from '#shared/text/sentences'
import { HitCollector, finishHit } from './hits'
import { Violations } from './shape'

describe('finishHit', () => {
  it('keeps what the server sent and derives nothing', () => {
    const hit = finishHit(
      's',
      { id: 'a', title: 'T', snippet: 'S', summary: 'Sum', score: 0.4 },
      {},
      '#0',
    )
    expect(hit).toMatchObject({
      id: 'a',
      title: 'T',
      snippet: 'S',
      summary: 'Sum',
      score: 0.4,
      derived: { title: false, summary: false },
      flags: [],
    })
  })

  it('clips a long server snippet to the bound', () => {
    const hit = finishHit('s', { id: 'a', title: 'T', snippet: 'word '.repeat(200) }, {}, '#0')
    expect(hit.snippet.length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS)
    expect(hit.snippet.endsWith('…')).toBe(true)
  })

  it('builds the snippet from the text when the family sends none', () => {
    const text = `${'Long text. '.repeat(60)}`
    const hit = finishHit('s', { id: 'a', title: 'T', text }, {}, '#0')
    expect(hit.snippet.startsWith('Long text. Long text.')).toBe(true)
    expect(hit.snippet.length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS)
  })

  it('falls back to the file name, then the id, for a title when there is no text', () => {
    expect(finishHit('s', { id: 'a', fileName: 'f.pdf' }, {}, '#0').title).toBe('f.pdf')
    expect(finishHit('s', { id: 'a' }, {}, '#0')).toMatchObject({
      title: 'a',
      snippet: 'a',
      derived: { title: true, summary: false },
      flags: ['derived_title'],
    })
  })

  it('uses the uri, then the position, when the hit has no id', () => {
    expect(finishHit('s', { uri: 'https://x' }, {}, '#3').id).toBe('https://x')
    expect(finishHit('s', {}, {}, '#3').id).toBe('#3')
  })

  it('never invents a score', () => {
    expect(finishHit('s', { id: 'a', text: 'x' }, {}, '#0')).not.toHaveProperty('score')
  })
})

describe('HitCollector', () => {
  it('gives each hit the violations found while reading it', () => {
    const out = new Violations()
    const hits = new HitCollector('s', out)
    hits.add({}, 'hits[0]', 'id', () => ({ id: 'a' }))
    hits.add({}, 'hits[1]', 'id', () => {
      out.add('missing_field', 'hits[1].text', 'missing')
      return { id: 'b' }
    })
    expect(hits.hits[0]?.violations).toEqual([])
    expect(hits.hits[1]?.violations).toEqual([
      { rule: 'missing_field', path: 'hits[1].text', message: 'missing' },
    ])
    expect(hits.hits[1]?.flags).toEqual(['violations', 'derived_title'])
  })

  it('reports a repeated id at the id field of the later hit', () => {
    const out = new Violations()
    const hits = new HitCollector('s', out)
    hits.add({}, 'hits[0]', 'uid', () => ({ id: 'a' }))
    hits.add({}, 'hits[1]', 'uid', () => ({ id: 'a' }))
    expect(out.list).toEqual([
      expect.objectContaining({ rule: 'duplicate_id', path: 'hits[1].uid' }),
    ])
  })
})
