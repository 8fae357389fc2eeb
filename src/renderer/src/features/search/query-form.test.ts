import { describe, expect, it } from 'vitest'
import { MAX_EXTRA_PHRASES } from '#shared/model/operations'
import { isRunShortcut, mayRun, withNewPhrase, withoutPhrase, withPhrase } from './query-form'
import type { SearchDraft } from './search-run'

const draft = (query: string, phrases: string[] = []): SearchDraft => ({
  query,
  phrases,
  topK: 10,
  fusion: 'rrf',
})

describe('Run', () => {
  it('needs a query that is not blank, and something to search on', () => {
    expect(mayRun(draft('vpn'), undefined)).toBe(true)
    expect(mayRun(draft('  \n'), undefined)).toBe(false)
    expect(mayRun(draft('vpn'), 'No source is selected')).toBe(false)
  })

  it('goes on Ctrl+Enter, or ⌘+Enter on a Mac, and on nothing else', () => {
    const key = (key: string, ctrlKey: boolean, metaKey: boolean) => ({ key, ctrlKey, metaKey })
    expect(isRunShortcut(key('Enter', true, false), false)).toBe(true)
    expect(isRunShortcut(key('Enter', false, true), false)).toBe(false)
    expect(isRunShortcut(key('Enter', false, true), true)).toBe(true)
    expect(isRunShortcut(key('Enter', true, false), true)).toBe(false)
    expect(isRunShortcut(key('Enter', false, false), false)).toBe(false)
    expect(isRunShortcut(key('a', true, true), false)).toBe(false)
  })
})

describe('extra phrases', () => {
  it('are added empty, up to the limit', () => {
    expect(withNewPhrase(draft('q', ['a'])).phrases).toEqual(['a', ''])
    const full = draft(
      'q',
      Array.from({ length: MAX_EXTRA_PHRASES }, (_, i) => `p${i}`),
    )
    expect(withNewPhrase(full)).toBe(full)
  })

  it('change and go one at a time, the query and the others kept', () => {
    const before = draft('q', ['a', 'b', 'c'])
    expect(withPhrase(before, 1, 'B')).toEqual(draft('q', ['a', 'B', 'c']))
    expect(withoutPhrase(before, 0)).toEqual(draft('q', ['b', 'c']))
    expect(withoutPhrase(before, 2)).toEqual(draft('q', ['a', 'b']))
    expect(before.phrases).toEqual(['a', 'b', 'c'])
  })
})
