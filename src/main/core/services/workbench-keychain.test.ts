import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { createCore, type Core } from '../core'
import { describeWithKeyring, uniqueServerId } from '#test/support/secrets/keyring'
import { fixture } from '#test/support/pool/helpers'
import { listeningUrl, startChild } from '#test/support/process/start-child'

/** "Add to registry" of a tried server, against the real Secret Service. */

describeWithKeyring('adding a tried server to the registry', () => {
  let dir: string
  let core: Core
  let id: string
  /** The keychain names the import chose, removed after the test. */
  let stored: string[] = []
  const key = `sk-live-${Math.random().toString(36).slice(2)}0123456789`

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rc-workbench-keychain-'))
    const configPath = join(dir, 'rag-mcp.json')
    writeFileSync(configPath, '{}\n')
    core = await createCore({ configPath, dataDir: join(dir, 'data'), watch: false })
    id = uniqueServerId('tried')
  })

  afterEach(async () => {
    for (const name of stored) await core.secrets.keychain.delete(id, name).catch(() => false)
    stored = []
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
    stored = [name!]
    expect(added.movedSecrets).toEqual([{ name, where: 'headers.X-API-Key' }])
    expect(entry.headers['X-Tenant']).toBe('acme')
    expect(await core.secrets.keychain.get(id, name!)).toBe(key)
  })

  it('moves a key in the URL to the keychain; the added server connects with it', async () => {
    const http = await startChild(
      [fixture('http-server.mjs'), '--transport', 'http', '--json'],
      listeningUrl,
    )
    try {
      const tried = await core.workbench.tryServer({
        transport: 'http',
        url: `${http.ready}?api_key=${key}&tenant=acme`,
      })
      const { hash } = await core.registry.readRaw()
      const added = await core.workbench.addTried(tried.server, id, hash)
      stored = added.movedSecrets.map((moved) => moved.name)
      const file = readFileSync(join(dir, 'rag-mcp.json'), 'utf8')
      expect(file).not.toContain(key)
      expect(added.movedSecrets).toEqual([{ name: 'api_key', where: 'url (query api_key)' }])
      const entry = (JSON.parse(file) as Record<string, { url: string }>)[id]!
      expect(entry.url).toBe(`${http.ready}?api_key=\${keychain:api_key}&tenant=acme`)
      expect(await core.secrets.keychain.get(id, 'api_key')).toBe(key)
      await core.pool.applyRegistry(core.registry.current())
      const result = await core.pool.callTool(id, 'whoami', {}, { operation: 'call' })
      const seen = JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as {
        query: string
      }
      expect(seen.query).toBe(`?api_key=${key}&tenant=acme`)
    } finally {
      await http.stop()
    }
  })

  it('moves --api-key and --token= values to the keychain; the added command gets them', async () => {
    const token = `${key}-token`
    const tried = await core.workbench.tryServer({
      transport: 'stdio',
      command: process.execPath,
      args: [fixture('stdio-server.mjs'), '--api-key', key, `--token=${token}`],
    })
    const { hash } = await core.registry.readRaw()
    const added = await core.workbench.addTried(tried.server, id, hash)
    stored = added.movedSecrets.map((moved) => moved.name)
    const file = readFileSync(join(dir, 'rag-mcp.json'), 'utf8')
    expect(file).not.toContain(key)
    expect(added.movedSecrets).toEqual([
      { name: 'api-key', where: 'args (api-key)' },
      { name: 'token', where: 'args (token)' },
    ])
    const entry = (JSON.parse(file) as Record<string, { args: string[] }>)[id]!
    expect(entry.args.slice(1)).toEqual([
      '--api-key',
      '${keychain:api-key}',
      '--token=${keychain:token}',
    ])
    await core.pool.applyRegistry(core.registry.current())
    const result = await core.pool.callTool(id, 'argv', {}, { operation: 'call' })
    const argv = JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as string[]
    expect(argv).toEqual(['--api-key', key, `--token=${token}`])
  })
})
