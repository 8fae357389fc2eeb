import { describe, expect, it } from 'vitest'
import { createUiStore } from './store'

describe('navigation', () => {
  it('switches panels at once when the config editor is clean', () => {
    const store = createUiStore()
    store.getState().navigationRequested('config')
    store.getState().navigationRequested('audit')
    expect(store.getState().panel).toBe('audit')
    expect(store.getState().pendingPanel).toBeNull()
  })

  it('holds a panel switch back while the config editor has unsaved edits', () => {
    const store = createUiStore()
    store.getState().navigationRequested('config')
    store.getState().configDirtyChanged(true)
    store.getState().navigationRequested('servers')
    expect(store.getState().panel).toBe('config')
    expect(store.getState().pendingPanel).toBe('servers')
  })

  it('leaves Config and forgets the edits once the user confirms', () => {
    const store = createUiStore()
    store.getState().navigationRequested('config')
    store.getState().configDirtyChanged(true)
    store.getState().navigationRequested('health')
    store.getState().navigationConfirmed()
    expect(store.getState().panel).toBe('health')
    expect(store.getState().configDirty).toBe(false)
  })

  it('stays in Config with the edits when the user cancels', () => {
    const store = createUiStore()
    store.getState().navigationRequested('config')
    store.getState().configDirtyChanged(true)
    store.getState().navigationRequested('health')
    store.getState().navigationCancelled()
    expect(store.getState().panel).toBe('config')
    expect(store.getState().configDirty).toBe(true)
  })

  it('asks for focus in the panel a shortcut opens, also when it is already shown', () => {
    const store = createUiStore()
    store.getState().panelShortcutPressed('search')
    expect(store.getState().panel).toBe('search')
    expect(store.getState().panelFocus).toBe(1)
    store.getState().panelShortcutPressed('search')
    expect(store.getState().panelFocus).toBe(2)
  })

  it('leaves focus to the unsaved-edits question when a shortcut is held back', () => {
    const store = createUiStore()
    store.getState().navigationRequested('config')
    store.getState().configDirtyChanged(true)
    store.getState().panelShortcutPressed('audit')
    expect(store.getState().pendingPanel).toBe('audit')
    expect(store.getState().panelFocus).toBe(0)
  })

  it('opens the Secrets tab focused on a server when another panel asks', () => {
    const store = createUiStore()
    store.getState().secretsRequested('docsRag')
    expect(store.getState()).toMatchObject({
      panel: 'config',
      configTab: 'secrets',
      secretsFocus: 'docsRag',
    })
  })
})

describe('notices', () => {
  it('keeps only the newest four notices on screen', () => {
    const store = createUiStore()
    for (let i = 0; i < 6; i++) store.getState().noticePosted({ tone: 'info', message: `n${i}` })
    expect(store.getState().toasts.map((t) => t.message)).toEqual(['n2', 'n3', 'n4', 'n5'])
  })
})

describe('evaluation', () => {
  it("forgets the run and the compared pair when another set is opened: they were the old set's", () => {
    const store = createUiStore()
    store.getState().evaluationRunSelected('run-1')
    store.getState().evaluationCompareChanged({ base: 'run-1', candidate: 'run-2' })
    store.getState().evaluationSetSelected('other')
    expect(store.getState()).toMatchObject({
      evaluationSet: 'other',
      evaluationRun: null,
      evaluationCompare: { base: null, candidate: null },
    })
  })
})
