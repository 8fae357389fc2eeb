import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createCore, type Core } from '../core'
import { dispatch } from '../api/dispatch'
import { createHandlers, type Handlers } from '../api/handlers'

let core: Core
let handlers: Handlers
const events: { name: string; payload: unknown }[] = []

beforeEach(async () => {
  core = await createCore({
    dataDir: mkdtempSync(join(tmpdir(), 'rc-prof-')),
    env: {},
    watch: false,
  })
  handlers = createHandlers(core)
  events.length = 0
  core.events.onAny((name, payload) => events.push({ name, payload }))
})

afterEach(() => core.dispose())

const sales = {
  id: 'sales',
  name: 'Sales rep',
  userId: 'alice@example.com',
  sessionTags: ['department:sales'],
  groups: ['sales'],
}

describe('profile IPC', () => {
  it('creates, activates and lists profiles, announcing each change', async () => {
    expect(await dispatch(handlers, 'profiles:save', sales)).toMatchObject({
      ok: true,
      value: sales,
    })
    expect(await dispatch(handlers, 'profiles:activate', { id: 'sales' })).toMatchObject({
      ok: true,
    })
    const list = await dispatch(handlers, 'profiles:list', undefined)
    expect(list).toMatchObject({ ok: true, value: { activeId: 'sales' } })
    expect(events.filter((e) => e.name === 'profiles:changed')).toHaveLength(2)
  })

  it('refuses a profile with an unusable id or no user', async () => {
    expect(await dispatch(handlers, 'profiles:save', { ...sales, id: '../x' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    })
    expect(await dispatch(handlers, 'profiles:save', { ...sales, userId: '  ' })).toMatchObject({
      ok: false,
    })
  })

  it('keeps source toggles per profile', async () => {
    await dispatch(handlers, 'profiles:save', sales)
    await dispatch(handlers, 'selection:set', { server: 'docs', sources: { handbook: true } })
    await dispatch(handlers, 'profiles:activate', { id: 'sales' })
    await dispatch(handlers, 'selection:set', { server: 'docs', sources: { legal: false } })
    expect(await dispatch(handlers, 'selection:get', undefined)).toEqual({
      ok: true,
      value: { docs: { legal: false } },
    })
    await dispatch(handlers, 'profiles:activate', { id: 'admin' })
    expect(await dispatch(handlers, 'selection:get', undefined)).toEqual({
      ok: true,
      value: { docs: { handbook: true } },
    })
    expect(events.filter((e) => e.name === 'selection:changed')).toHaveLength(2)
  })

  it('reports deleting an unknown profile as not found', async () => {
    expect(await dispatch(handlers, 'profiles:delete', { id: 'ghost' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    })
  })
})

describe('link policy IPC', () => {
  it('stores the policy trimmed, and the next check obeys it without a restart', async () => {
    const link = { url: 'http://wiki.intranet.example/doc' }
    expect(await dispatch(handlers, 'link-policy:get', undefined)).toEqual({
      ok: true,
      value: { allowHosts: [], denyHosts: [], privateHosts: [] },
    })
    const set = await dispatch(handlers, 'link-policy:set', {
      allowHosts: [],
      denyHosts: [' intranet.example '],
      privateHosts: [' wiki.corp.example '],
    })
    expect(set).toEqual({
      ok: true,
      value: {
        allowHosts: [],
        denyHosts: ['intranet.example'],
        privateHosts: ['wiki.corp.example'],
      },
    })
    const check = await dispatch(handlers, 'access:check', { target: link })
    expect(check).toMatchObject({
      ok: true,
      value: { link: { classification: 'blocked', error: expect.stringMatching(/denied/) } },
    })
    const file = JSON.parse(readFileSync(join(core.dataDir, 'settings.json'), 'utf8'))
    expect(file.linkPolicy).toEqual({
      allowHosts: [],
      denyHosts: ['intranet.example'],
      privateHosts: ['wiki.corp.example'],
    })
  })

  it('refuses an empty host rule', async () => {
    const set = await dispatch(handlers, 'link-policy:set', {
      allowHosts: [' '],
      denyHosts: [],
      privateHosts: [],
    })
    expect(set).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
  })
})
