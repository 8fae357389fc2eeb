import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { builtFile } from '#test/support/process/built'
import { dispatch } from '#core/api/dispatch'
import { createHandlers } from '#core/api/handlers'
import { createCore, type Core } from '#core/core'
import { KeychainStore } from '#core/secrets/keychain-store'
import { describeWithKeyring } from '#test/support/secrets/keyring'
import { demoBootstrap } from './bootstrap'
import { demoEnvName, demoProfiles, readDemoSecrets, readDemoUsers } from './demo-keys'

const cores: Core[] = []
afterEach(async () => {
  for (const core of cores.splice(0)) await core.dispose()
})

const dataDir = (): string => mkdtempSync(join(tmpdir(), 'rc-demokeys-'))

async function core(options: Parameters<typeof createCore>[0]): Promise<Core> {
  const created = await createCore({ env: {}, watch: false, ...options })
  cores.push(created)
  return created
}

describe('demo keys', () => {
  it('are read from the built demo entry', async () => {
    const secrets = await readDemoSecrets(builtFile('main/demo.js'))
    expect(Object.keys(secrets).sort()).toEqual(['documentVault', 'knowledgeSearch'])
    expect(secrets.documentVault!.apiKey).toMatch(/^rbx_live_[0-9a-f]{64}$/)
  })

  it('come with the demo users, whom a first run can "view as", starting as the admin', async () => {
    const users = await readDemoUsers(builtFile('main/demo.js'))
    const { profiles, activeId } = demoProfiles(users)
    expect(profiles.map((p) => p.id)).toEqual(['alice', 'bob', 'carol', 'dan'])
    expect(activeId).toBe('carol')
    expect(profiles.find((p) => p.id === 'dan')).toMatchObject({
      userId: 'dan@contractor.example',
      groups: ['contractors'],
    })
  })

  it('travel through the environment, with a notice, when there is no keychain', async () => {
    const c = await core({
      dataDir: dataDir(),
      demo: demoBootstrap(),
      keychain: {
        openEntry: async () => {
          throw new Error('org.freedesktop.DBus.Error.ServiceUnknown: no Secret Service')
        },
      },
    })
    const info = c.info()
    expect(info.notices).toHaveLength(1)
    expect(info.notices[0]).toMatchObject({
      id: 'keychain-unavailable',
      message: expect.stringMatching(/environment variables, for this session only/),
      detail: expect.stringMatching(/no Secret Service.*restart the console/),
    })
    const search = c.registry.server('knowledgeSearch')!
    expect(search.headers.Authorization).toBe(
      `Bearer \${env:${demoEnvName('knowledgeSearch', 'apiKey')}}`,
    )
    const resolved = await c.secrets.resolve(search)
    expect(resolved.missing).toEqual([])
    expect(resolved.headers.Authorization).toMatch(/^Bearer demo-rag-search-/)
    // A first run on the demo starts as its admin user, with the others to "view as".
    expect(c.settings.active().userId).toBe('carol@example.com')
    expect(c.settings.profiles()).toHaveLength(5)
    // The process environment is untouched.
    expect(process.env[demoEnvName('knowledgeSearch', 'apiKey')]).toBeUndefined()
  })

  it('say so once: a notice dismissed is not shown again after a restart', async () => {
    const dir = dataDir()
    const noKeychain = {
      openEntry: async () => {
        throw new Error('org.freedesktop.DBus.Error.ServiceUnknown: no Secret Service')
      },
    }
    const first = await core({ dataDir: dir, demo: demoBootstrap(), keychain: noKeychain })
    first.dismissNotice('keychain-unavailable')
    expect(first.info().notices).toEqual([])
    await first.dispose()
    const again = await core({ dataDir: dir, demo: demoBootstrap(), keychain: noKeychain })
    expect(again.info().notices).toEqual([])
  })

  it('are left alone by a core given no demo bootstrap', async () => {
    const c = await core({
      dataDir: dataDir(),
      keychain: {
        openEntry: async () => {
          throw new Error('must not be called')
        },
      },
    })
    expect(c.info().notices).toEqual([])
    expect(c.registry.server('knowledgeSearch')!.headers.Authorization).toBe(
      'Bearer ${keychain:apiKey}',
    )
    expect(c.settings.profiles()).toHaveLength(1)
  })

  it('are not touched when a real registry file is in use', async () => {
    const dir = dataDir()
    const c = await core({
      dataDir: dir,
      demo: demoBootstrap(),
      configPath: join(dir, 'rag-mcp.json'),
      keychain: {
        openEntry: async () => {
          throw new Error('must not be called')
        },
      },
    })
    expect(c.info().notices).toEqual([])
  })
})

describe('the demo golden set', () => {
  it('is offered with the embedded registry, not with a registry of its own', async () => {
    const sets = async (options: Parameters<typeof createCore>[0]): Promise<unknown> =>
      dispatch(createHandlers(await core(options)), 'eval:sets', undefined)
    const noKeychain = { openEntry: () => Promise.reject(new Error('no keychain here')) }
    const dir = dataDir()
    expect(await sets({ dataDir: dir, demo: demoBootstrap(), keychain: noKeychain })).toMatchObject(
      {
        ok: true,
        value: [{ id: 'demo', name: 'Demo corpus', queryCount: expect.any(Number) }],
      },
    )
    const own = join(dataDir(), 'rag-mcp.json')
    writeFileSync(own, '{}\n')
    expect(await sets({ dataDir: dataDir(), configPath: own, demo: demoBootstrap() })).toEqual({
      ok: true,
      value: [],
    })
  })
})

describeWithKeyring('demo keys with a keychain', () => {
  it('are stored in the keychain on first run and resolve from it', async () => {
    const keychain = new KeychainStore()
    await keychain.delete('knowledgeSearch', 'apiKey')
    const c = await core({ dataDir: dataDir(), demo: demoBootstrap() })
    expect(c.info().notices).toEqual([])
    expect(await keychain.get('knowledgeSearch', 'apiKey')).toMatch(/^demo-rag-search-/)
    const resolved = await c.secrets.resolve(c.registry.server('knowledgeSearch')!)
    expect(resolved.missing).toEqual([])
  })

  it('leave a key the user replaced alone', async () => {
    const keychain = new KeychainStore()
    await keychain.set('documentVault', 'apiKey', 'rbx_live_' + 'a'.repeat(64))
    await core({ dataDir: dataDir(), demo: demoBootstrap() })
    expect(await keychain.get('documentVault', 'apiKey')).toBe('rbx_live_' + 'a'.repeat(64))
    await keychain.delete('documentVault', 'apiKey')
  })
})
