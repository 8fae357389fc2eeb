import { describe, expect, it } from 'vitest'
import type { Citation, Violation } from '#shared/model/rag'
import {
  answerMeasure,
  chipText,
  citationDomId,
  citationLine,
  isSuspicious,
  modeBadge,
  violationsBadge,
} from './answer-card'

describe('what an answer says about itself', () => {
  it('names who wrote it', () => {
    expect(modeBadge({ mode: 'server' })).toMatchObject({ tone: 'info', label: 'server' })
    expect(modeBadge({ mode: 'client' })).toMatchObject({ tone: 'neutral', label: 'client' })
    expect(modeBadge({ mode: 'client' }).title).toMatch(/extractive/)
  })

  it("shows a server's confidence as a whole percentage", () => {
    expect(answerMeasure({ mode: 'server', confidence: 0.826 })?.text).toBe('confidence 83%')
    expect(answerMeasure({ mode: 'server', confidence: 0 })?.text).toBe('confidence 0%')
    expect(answerMeasure({ mode: 'server' })).toBeNull()
  })

  it('claims no confidence for a client answer, only the query words it covers', () => {
    const measure = answerMeasure({
      mode: 'client',
      confidence: 0.9,
      coverage: { matched: 2, total: 3 },
    })
    expect(measure?.text).toBe('2 of 3 query words found')
    expect(measure?.title).toMatch(/no confidence score/)
    expect(answerMeasure({ mode: 'client', coverage: { matched: 1, total: 1 } })?.text).toBe(
      '1 of 1 query word found',
    )
    expect(answerMeasure({ mode: 'client', coverage: { matched: 0, total: 0 } })).toBeNull()
  })

  it('is suspicious only when flagged so', () => {
    expect(isSuspicious({ flags: ['suspicious'] })).toBe(true)
    expect(isSuspicious({ flags: [] })).toBe(false)
    expect(isSuspicious({})).toBe(false)
    expect(isSuspicious(undefined)).toBe(false)
  })

  it('counts its contract violations and lists their paths in the title', () => {
    const violation = (path: string): Violation => ({ rule: 'type', path, message: 'bad' })
    expect(violationsBadge([violation('answer')])).toEqual({
      label: '1 contract violation',
      title: 'answer: bad',
    })
    expect(violationsBadge([violation('a'), violation('b')])).toEqual({
      label: '2 contract violations',
      title: 'a: bad\nb: bad',
    })
  })
})

describe('each citation', () => {
  const full: Citation = {
    n: 2,
    server: 'wiki',
    sourceId: 'hr',
    hitId: 'h1',
    title: 'Leave',
    uri: 'u:1',
  }
  const bare: Citation = { n: 3, server: 'wiki' }

  it('is named by its title, else its link, else its hit id', () => {
    expect(citationLine(full)).toEqual({ label: 'Leave', where: 'hr · wiki' })
    expect(citationLine({ n: 1, server: 'wiki', uri: 'u:1', hitId: 'h1' }).label).toBe('u:1')
    expect(citationLine({ n: 1, server: 'wiki', hitId: 'h1' }).label).toBe('h1')
    expect(citationLine(bare)).toEqual({ label: 'untitled', where: 'wiki' })
  })

  it('has a chip whose tooltip says when its hit is not among this search’s hits', () => {
    expect(chipText(full, true)).toEqual({ name: 'Citation 2: Leave', title: 'Leave' })
    expect(chipText(full, false).title).toBe('Leave (not among the hits of this search)')
    expect(chipText(bare, true)).toEqual({ name: 'Citation 3: ', title: '' })
  })

  it('has an element id that stays valid for any server id', () => {
    expect(citationDomId('docs rag/1', 4)).toBe('cite-docs%20rag%2F1-4')
  })
})
