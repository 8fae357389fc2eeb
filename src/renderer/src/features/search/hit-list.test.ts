import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { listKeyAction } from './hit-list'

const press = (
  key: string,
  mods: { ctrlKey?: boolean; metaKey?: boolean; altKey?: boolean } = {},
) => ({
  key,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  ...mods,
})

describe('moving through a hit list', () => {
  it('moves one row, a page, or to either end, staying inside the list', () => {
    const at = (key: string, selected: number) => listKeyAction(press(key), selected, 25, false)
    expect(at('ArrowDown', 3)).toEqual({ type: 'select', index: 4 })
    expect(at('ArrowUp', 3)).toEqual({ type: 'select', index: 2 })
    expect(at('ArrowUp', 0)).toEqual({ type: 'select', index: 0 })
    expect(at('ArrowDown', 24)).toEqual({ type: 'select', index: 24 })
    expect(at('Home', 7)).toEqual({ type: 'select', index: 0 })
    expect(at('End', 7)).toEqual({ type: 'select', index: 24 })
    expect(at('PageDown', 7)).toEqual({ type: 'select', index: 17 })
    expect(at('PageDown', 20)).toEqual({ type: 'select', index: 24 })
    expect(at('PageUp', 7)).toEqual({ type: 'select', index: 0 })
    expect(at('PageUp', 17)).toEqual({ type: 'select', index: 7 })
  })

  it('selects the first row on the first move when none is selected', () => {
    expect(listKeyAction(press('ArrowDown'), -1, 5, false)).toEqual({ type: 'select', index: 0 })
    expect(listKeyAction(press('ArrowUp'), -1, 5, false)).toEqual({ type: 'select', index: 0 })
  })

  it('leaves other keys to the page', () => {
    expect(listKeyAction(press('Enter'), 2, 5, false)).toBeUndefined()
    expect(listKeyAction(press('a'), 2, 5, false)).toBeUndefined()
    expect(listKeyAction(press('constructor'), 2, 5, false)).toBeUndefined()
  })

  it('always lands on a row of the list, whatever the key and selection', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('ArrowDown', 'ArrowUp', 'Home', 'End', 'PageDown', 'PageUp'),
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: -1, max: 10_000 }),
        (key, count, selected) => {
          const action = listKeyAction(press(key), Math.min(selected, count - 1), count, false)
          expect(action?.type).toBe('select')
          const index = action?.type === 'select' ? action.index : -1
          expect(index).toBeGreaterThanOrEqual(0)
          expect(index).toBeLessThan(count)
        },
      ),
    )
  })
})

describe('judging from the keyboard', () => {
  it('grades the selected hit 0–3 and removes its grade with Delete', () => {
    expect(listKeyAction(press('2'), 1, 5, true)).toEqual({ type: 'grade', grade: 2 })
    expect(listKeyAction(press('0'), 1, 5, true)).toEqual({ type: 'grade', grade: 0 })
    expect(listKeyAction(press('Delete'), 1, 5, true)).toEqual({ type: 'grade', grade: null })
    expect(listKeyAction(press('4'), 1, 5, true)).toBeUndefined()
  })

  it('judges nothing while judging is off, no hit is selected, or a modifier is held', () => {
    expect(listKeyAction(press('2'), 1, 5, false)).toBeUndefined()
    expect(listKeyAction(press('2'), -1, 5, true)).toBeUndefined()
    expect(listKeyAction(press('Delete'), -1, 5, true)).toBeUndefined()
    expect(listKeyAction(press('2', { ctrlKey: true }), 1, 5, true)).toBeUndefined()
    expect(listKeyAction(press('3', { metaKey: true }), 1, 5, true)).toBeUndefined()
    expect(listKeyAction(press('1', { altKey: true }), 1, 5, true)).toBeUndefined()
  })

  it('still moves the selection while judging', () => {
    expect(listKeyAction(press('ArrowDown'), 1, 5, true)).toEqual({ type: 'select', index: 2 })
  })
})
