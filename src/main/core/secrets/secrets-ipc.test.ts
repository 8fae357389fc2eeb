import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import type { IpcResponse } from '#shared/ipc/wire'
import type { InvokeChannel } from '#shared/ipc/contract'
import { dispatch } from '../api/dispatch'
import { createHandlers, type Handlers } from '../api/handlers'
import { createCore, type Core } from '../core'
import { REDACTED } from './redactor'
import { describeWithKeyring, uniqueServerId } from '#test/support/secrets/keyring'
import { serverConfig } from '#test/support/config/server-config'

describeWithKeyring('secrets over IPC, against the real Secret Service', () => {
  let core: Core
  let handlers: Handlers
  let server: string
  let value: string
  const seen: unknown[] = []

  const call = async (channel: InvokeChannel, request?: unknown): Promise<IpcResponse<unknown>> => {
    const response = await dispatch(handlers, channel, request)
    seen.push(response)
    return response
  }

  beforeEach(async () => {
    core = await createCore({
      dataDir: mkdtempSync(join(tmpdir(), 'rc-ipc-')),
      env: { RC_T: 'acme' },
    })
    handlers = createHandlers(core)
    server = uniqueServerId('ipc')
    value = `ipc-canary-${server}`
    seen.length = 0
    core.events.onAny((name, payload) => seen.push({ name, payload }))
    // The registry is composed into the core elsewhere; here it holds one server.
    vi.spyOn(core, 'serverConfigs').mockReturnValue([
      serverConfig(server, {
        headers: {
          Authorization: 'Bearer ${keychain:apiKey}',
          'X-Tenant': '${env:RC_T}',
          'X-Cap': '${session:cap}',
        },
      }),
    ])
  })

  afterEach(async () => {
    await core.secrets.keychain.delete(server, 'apiKey')
    await core.dispose()
    // Nothing any response or event carried may hold the value.
    expect(JSON.stringify(seen)).not.toContain(value)
  })

  it('stores a key with secrets:set, lists it as present and resolves it in main only', async () => {
    expect(await call('secrets:list', { server })).toEqual({
      ok: true,
      value: {
        servers: [
          {
            server,
            refs: [
              {
                kind: 'keychain',
                name: 'apiKey',
                present: false,
                where: ['headers.Authorization'],
              },
              { kind: 'env', name: 'RC_T', present: true, where: ['headers.X-Tenant'] },
              { kind: 'session', name: 'cap', present: false, where: ['headers.X-Cap'] },
            ],
          },
        ],
        keychain: { available: true },
      },
    })
    expect(await call('secrets:set', { server, name: 'apiKey', value })).toEqual({
      ok: true,
      value: { server, name: 'apiKey', present: true },
    })
    const listed = await call('secrets:list', {})
    expect(listed).toMatchObject({
      ok: true,
      value: { servers: [{ refs: [{ name: 'apiKey', present: true }, {}, {}] }] },
    })
    expect(seen).toContainEqual({
      name: 'secrets:changed',
      payload: { server, name: 'apiKey', kind: 'keychain', present: true },
    })
    const resolved = await core.secrets.resolve(core.serverConfigs()[0]!)
    expect(resolved.headers.Authorization).toBe(`Bearer ${value}`)
  })

  it('tells the pool through onChanged when a key is set or deleted, without the value', async () => {
    const changes: unknown[] = []
    core.secrets.onChanged((change) => changes.push(change))
    await call('secrets:set', { server, name: 'apiKey', value })
    expect(await call('secrets:delete', { server, name: 'apiKey' })).toEqual({
      ok: true,
      value: { server, name: 'apiKey', deleted: true },
    })
    expect(await call('secrets:delete', { server, name: 'apiKey' })).toEqual({
      ok: true,
      value: { server, name: 'apiKey', deleted: false },
    })
    expect(changes).toEqual([
      { server, name: 'apiKey', kind: 'keychain', present: true },
      { server, name: 'apiKey', kind: 'keychain', present: false },
    ])
  })

  it('rejects an empty or multi-line value without echoing it', async () => {
    const empty = await call('secrets:set', { server, name: 'apiKey', value: '  ' })
    expect(empty).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
    const twoLines = await call('secrets:set', { server, name: 'apiKey', value: `${value}\nmore` })
    expect(twoLines).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', message: expect.stringMatching(/one line/) },
    })
    expect(await core.secrets.keychain.has(server, 'apiKey')).toBe(false)
  })

  it('redacts a stored value from an error a handler throws', async () => {
    await call('secrets:set', { server, name: 'apiKey', value })
    const failing = {
      ...handlers,
      'secrets:list': () => {
        throw new Error(`upstream rejected key ${value}`)
      },
    } as Handlers
    const response = await dispatch(failing, 'secrets:list', {})
    seen.push(response)
    expect(response).toEqual({
      ok: false,
      error: { code: 'internal', message: `upstream rejected key ${REDACTED}` },
    })
  })

  it('keeps session tokens in memory: set, list, use, clear', async () => {
    expect(await call('secrets:session-set', { server, name: 'cap', value })).toEqual({
      ok: true,
      value: { server, name: 'cap' },
    })
    expect(await call('secrets:session-list', { server })).toMatchObject({
      ok: true,
      value: { tokens: [{ server, name: 'cap', setAt: expect.any(Number) }] },
    })
    const resolved = await core.secrets.resolve(core.serverConfigs()[0]!)
    expect(resolved.headers['X-Cap']).toBe(value)
    expect(await call('secrets:session-clear', { server })).toEqual({
      ok: true,
      value: { server, cleared: ['cap'] },
    })
    expect(seen.filter((e) => (e as { name?: string }).name === 'secrets:changed')).toEqual([
      { name: 'secrets:changed', payload: { server, name: 'cap', kind: 'session', present: true } },
      {
        name: 'secrets:changed',
        payload: { server, name: 'cap', kind: 'session', present: false },
      },
    ])
  })

  it('writes a stored value to the core log only as [redacted]', async () => {
    await call('secrets:set', { server, name: 'apiKey', value })
    core.log.error(`connect failed with ${value}`, { headers: { 'X-Key': value } })
    const log = readFileSync(join(core.dataDir, 'logs', 'main.log'), 'utf8')
    expect(log).toContain(`connect failed with ${REDACTED}`)
    expect(log).not.toContain(value)
  })

  it('answers secrets:list for a server not in the registry with not_found', async () => {
    expect(await call('secrets:list', { server: `${server}-unknown` })).toMatchObject({
      ok: false,
      error: { code: 'not_found', message: expect.stringMatching(/not in the registry/) },
    })
  })
})
