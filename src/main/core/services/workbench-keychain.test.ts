import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { createCore, type Core } from '../core'
import { describeWithKeyring, uniqueServerId } from '../secrets/testing/keyring'

/** "Add to registry" of a tried server, against the real Secret Service. */

describeWithKeyring('adding a tried server to the registry', () => {
  let dir: string
  let core: Core
  let id: string
  /** The keychain name the import chose, removed after the test. */
  let stored: string | undefined
  const key = `sk-live-${Math.random().toString(36).slice(2)}0123456789`

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rc-workbench-keychain-'))
    const configPath = join(dir, 'rag-mcp.json')
    writeFileSync(configPath, '{}\n')
    core = await createCore({ configPath, dataDir: join(dir, 'data'), watch: false })
    id = uniqueServerId('tried')
  })

  afterEach(async () => {
    if (stored) await core.secrets.keychain.delete(id, stored).catch(() => false)
    stored = undefined
    await core.dispose()
    rmSync(dir, { recursive: true, force: true })
  })

  it('moves a typed key to the keychain and writes only a reference', async () => {
    const tried = await core.workbench.tryServer({
      transport: 'http',
      url: 'http://127.0.0.1:9/mcp',
      headers: { 'X-API-Key': key, 'X-Tenant': 'acme' },
    })
    const { hash } = await core.registry.readRaw()
    const added = await core.workbench.addTried(tried.server, id, hash)
    const file = readFileSync(join(dir, 'rag-mcp.json'), 'utf8')
    expect(file).not.toContain(key)
    const entry = (JSON.parse(file) as Record<string, { headers: Record<string, string> }>)[id]!
    const name = /^\$\{keychain:([^}]+)\}$/.exec(entry.headers['X-API-Key']!)?.[1]
    stored = name
    expect(added.movedSecrets).toEqual([{ name, where: 'headers.X-API-Key' }])
    expect(entry.headers['X-Tenant']).toBe('acme')
    expect(await core.secrets.keychain.get(id, name!)).toBe(key)
  })
})
