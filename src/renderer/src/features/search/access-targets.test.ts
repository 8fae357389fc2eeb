import { describe, expect, it } from 'vitest'
import { accessTargetSchema } from '#shared/ipc/rag'
import { createUiStore } from '../../state/store'
import { citationTarget, hitTarget } from './access-targets'

describe('access targets', () => {
  it('hands a hit to the Access panel as its server, id and link only', () => {
    const store = createUiStore()
    const hit = { server: 'docs', id: 'seg-1', uri: 'https://d/1', raw: { secret: 'x' } }
    store.getState().accessRequested(hitTarget(hit), 'Doc 1')
    expect(store.getState().panel).toBe('access')
    expect(store.getState().accessHandoff).toEqual({
      target: { hit: { server: 'docs', id: 'seg-1', uri: 'https://d/1' } },
      label: 'Doc 1',
    })
  })

  it('leaves out a link the hit does not have, and passes the IPC schema', () => {
    const target = hitTarget({ server: 'docs', id: 'seg-2' })
    expect(target).toEqual({ hit: { server: 'docs', id: 'seg-2' } })
    expect(accessTargetSchema.safeParse(target).success).toBe(true)
  })

  it('hands a citation over with the hit it came from', () => {
    const target = citationTarget({ server: 'kb', hitId: 'h3', uri: 'https://d/3' })
    expect(target).toEqual({ citation: { server: 'kb', hitId: 'h3', uri: 'https://d/3' } })
    expect(accessTargetSchema.safeParse(citationTarget({ server: 'kb' })).success).toBe(true)
  })
})
