import { describe, expect, it } from 'vitest'
import type { RawConfig } from '#shared/ipc/registry'
import { draftReducer, initialDraftState, isDirty, type DraftState } from './draft-state'

const raw = (text: string, hash = `h:${text}`): RawConfig => ({
  path: '/r.json',
  exists: true,
  text,
  hash,
  source: { kind: 'file', files: ['/r.json'], writableFile: '/r.json', label: '/r.json' },
  layeredOver: [],
  fromEmbedded: false,
})

const loaded = (text: string): DraftState =>
  draftReducer(initialDraftState, { type: 'diskRead', raw: raw(text) })

describe('config draft', () => {
  it('loads the file into a fresh editor', () => {
    const state = loaded('{}')
    expect(state.draft).toBe('{}')
    expect(isDirty(state)).toBe(false)
  })

  it('loads an external edit at once when there are no unsaved edits', () => {
    const state = draftReducer(loaded('{}'), { type: 'diskRead', raw: raw('{"a":{}}') })
    expect(state.draft).toBe('{"a":{}}')
    expect(state.diskAhead).toBeNull()
  })

  it('keeps unsaved edits and holds an external edit aside for comparison', () => {
    const edited = draftReducer(loaded('{}'), { type: 'edited', text: '{"mine":{}}' })
    const state = draftReducer(edited, { type: 'diskRead', raw: raw('{"theirs":{}}') })
    expect(state.draft).toBe('{"mine":{}}')
    expect(state.diskAhead?.text).toBe('{"theirs":{}}')
    expect(state.base?.text).toBe('{}')
  })

  it('takes a disk version that equals the draft as the new base (our own save)', () => {
    const edited = draftReducer(loaded('{}'), { type: 'edited', text: '{"a":{}}' })
    const state = draftReducer(edited, { type: 'diskRead', raw: raw('{"a":{}}') })
    expect(isDirty(state)).toBe(false)
    expect(state.diskAhead).toBeNull()
  })

  it('makes the saved text the base with the hash the save returned', () => {
    const edited = draftReducer(loaded('{}'), { type: 'edited', text: '{"a":{}}' })
    const state = draftReducer(edited, {
      type: 'saved',
      text: '{"a":{}}',
      hash: 'new',
      path: '/r.json',
    })
    expect(state.base?.hash).toBe('new')
    expect(isDirty(state)).toBe(false)
  })

  it('keeps the draft but adopts the disk hash when the user keeps their version', () => {
    const edited = draftReducer(loaded('{}'), { type: 'edited', text: 'mine' })
    const state = draftReducer(edited, { type: 'diskDismissed', raw: raw('theirs', 'h2') })
    expect(state.draft).toBe('mine')
    expect(state.base?.hash).toBe('h2')
    expect(isDirty(state)).toBe(true)
  })

  it('replaces the draft with the disk version when the user takes it', () => {
    const edited = draftReducer(loaded('{}'), { type: 'edited', text: 'mine' })
    const state = draftReducer(edited, { type: 'diskTaken', raw: raw('theirs') })
    expect(state.draft).toBe('theirs')
    expect(isDirty(state)).toBe(false)
  })

  it('bumps the revision when the text comes from outside, never while typing', () => {
    const start = loaded('{}')
    const typed = draftReducer(start, { type: 'edited', text: '{"a"' })
    expect(typed.revision).toBe(start.revision)
    const reverted = draftReducer(typed, { type: 'reverted' })
    expect(reverted.revision).toBe(start.revision + 1)
    const external = draftReducer(reverted, { type: 'diskRead', raw: raw('{"b":{}}') })
    expect(external.revision).toBe(start.revision + 2)
  })
})
