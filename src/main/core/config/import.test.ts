import { readFileSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { KeychainStore } from '../secrets/keychain-store'
import { describeWithKeyring, uniqueServerId } from '#test/support/secrets/keyring'
import { importCandidatePaths } from './import'
import { RegistryStore } from './store'
import { makeFifo, tempDir, writeFile } from '#test/support/files/temp-files'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const TARGET = `{
  // ours
  "docs": { "url": "https://docs.example/mcp", "groups": ["users"] },
  "kb": { "command": "kb", "args": ["--stdio"] }
}
`

async function setup(importText: string, importName: string, secrets?: KeychainStore) {
  const { dir, cleanup } = tempDir('rc-import-')
  cleanups.push(cleanup)
  const file = writeFile(join(dir, 'rag-mcp.json'), TARGET)
  const from = writeFile(join(dir, importName), importText)
  const store = new RegistryStore({
    lookup: { dataDir: dir, env: {}, configPath: file },
    watch: false,
    ...(secrets ? { secrets } : {}),
  })
  cleanups.push(() => store.dispose())
  await store.start()
  return { file, from, store }
}

const CLAUDE = JSON.stringify({
  mcpServers: {
    kb: { command: 'kb', args: ['--stdio'] },
    docs: { type: 'http', url: 'https://docs.example/v2/mcp', headers: { 'X-Tenant': 'acme' } },
    github: {
      command: 'npx',
      args: ['-y', 'github-mcp'],
      env: { GITHUB_TOKEN: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' },
      disabled: true,
      autoApprove: ['search'],
    },
  },
  globalShortcut: 'Ctrl+Space',
})

describe('import preview', () => {
  it('classifies Claude Desktop servers as added, changed or unchanged, with the resulting entries', async () => {
    const { from, store } = await setup(CLAUDE, 'claude_desktop_config.json')
    const preview = await store.previewImport({ path: from })
    expect(preview.form).toBe('mcpServers')
    expect(preview.servers.map((s) => [s.id, s.status])).toEqual([
      ['kb', 'unchanged'],
      ['docs', 'changed'],
      ['github', 'added'],
    ])
    const docs = preview.servers.find((s) => s.id === 'docs')!
    expect(docs.fields).toEqual({
      transport: 'http',
      url: 'https://docs.example/v2/mcp',
      headers: { 'X-Tenant': 'acme' },
    })
    // The import replaces connection fields and keeps the console's own (groups).
    expect(docs.config).toMatchObject({ url: 'https://docs.example/v2/mcp', groups: ['users'] })
    const github = preview.servers.find((s) => s.id === 'github')!
    expect(github.config).toMatchObject({ enabled: false })
    expect(preview.diagnostics.map((d) => `${d.rule}:${d.path}`)).toEqual([
      'unknown_field:globalShortcut',
      'not_imported:mcpServers.github.autoApprove',
    ])
  })

  it('turns VS Code password inputs into keychain references the user must set', async () => {
    const vscode = readFileSync(
      join(import.meta.dirname, '../../../test/fixtures/config/vscode-mcp.json'),
      'utf8',
    )
    const { from, store } = await setup(vscode, 'mcp.json')
    const preview = await store.previewImport({ path: from })
    expect(preview.servers[0]).toMatchObject({
      id: 'rag',
      status: 'added',
      fields: {
        headers: { Authorization: 'Bearer ${keychain:ragKey}', 'X-Tenant': '${keychain:tenant}' },
      },
    })
    expect(preview.requiredSecrets.map((s) => [s.server, s.name])).toEqual([
      ['rag', 'ragKey'],
      ['rag', 'tenant'],
    ])
    expect(preview.diagnostics.map((d) => `${d.rule}:${d.path}`)).toEqual([
      'input_reference:servers.rag.headers.X-Tenant',
    ])
  })

  it('accepts the file content instead of a path (browser upload)', async () => {
    const cursor = JSON.stringify({ mcpServers: { events: { url: 'http://127.0.0.1:9/sse' } } })
    const { store } = await setup('{}', 'unused.json')
    const preview = await store.previewImport({ text: cursor, name: 'mcp.json' })
    expect(preview.from).toBe('mcp.json')
    expect(preview.servers[0]).toMatchObject({
      id: 'events',
      status: 'added',
      config: { transport: 'sse' },
    })
  })
})

describe('import of plaintext secrets', () => {
  const GITHUB_TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789'
  const withSecrets = (server: string) =>
    JSON.stringify({
      mcpServers: {
        [server]: {
          url: 'https://kb.example/mcp',
          headers: { Authorization: 'Bearer sk-live-0123456789abcdefghij', 'X-Tenant': 'acme' },
          env: { GITHUB_TOKEN },
        },
      },
    })

  it('previews them as keychain references, naming each secret but never its value', async () => {
    const { from, store } = await setup(withSecrets('kb2'), 'claude.json')
    const preview = await store.previewImport({ path: from })
    expect(preview.servers[0]!.fields).toMatchObject({
      headers: { Authorization: 'Bearer ${keychain:token}', 'X-Tenant': 'acme' },
      env: { GITHUB_TOKEN: '${keychain:GITHUB_TOKEN}' },
    })
    expect(preview.servers[0]!.diagnostics.map((d) => d.rule)).not.toContain('plaintext_secret')
    expect(preview.secretsToMove).toEqual([
      { server: 'kb2', name: 'token', where: 'headers.Authorization' },
      { server: 'kb2', name: 'GITHUB_TOKEN', where: 'env.GITHUB_TOKEN' },
    ])
    expect(JSON.stringify(preview)).not.toMatch(/sk-live|ghp_/)
  })

  it('writes them in plaintext only when the admin chooses to keep them', async () => {
    const { file, from, store } = await setup(withSecrets('kb2'), 'claude.json')
    const preview = await store.previewImport({ path: from })
    const result = await store.applyImport({
      source: { path: from },
      baseHash: preview.target.hash,
      keepPlaintext: true,
    })
    expect(result.status).toBe('saved')
    expect(readFileSync(file, 'utf8')).toContain(GITHUB_TOKEN)
  })

  it('refuses to write them when there is no keychain, and writes nothing', async () => {
    const { file, from, store } = await setup(withSecrets('kb2'), 'claude.json')
    const preview = await store.previewImport({ path: from })
    await expect(
      store.applyImport({ source: { path: from }, baseHash: preview.target.hash }),
    ).rejects.toMatchObject({ code: 'keychain_unavailable' })
    expect(readFileSync(file, 'utf8')).toBe(TARGET)
  })
})

describeWithKeyring('import into the keychain', () => {
  const keychain = new KeychainStore()

  it('moves plaintext secrets to the keychain and writes references', async () => {
    const server = uniqueServerId('import')
    cleanups.push(async () => {
      await keychain.delete(server, 'token')
      await keychain.delete(server, 'GITHUB_TOKEN')
    })
    const text = JSON.stringify({
      mcpServers: {
        [server]: {
          url: 'https://kb.example/mcp',
          headers: { Authorization: 'Bearer sk-live-0123456789abcdefghij' },
          env: { GITHUB_TOKEN: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' },
        },
      },
    })
    const { file, from, store } = await setup(text, 'claude.json', keychain)
    const preview = await store.previewImport({ path: from })
    const result = await store.applyImport({
      source: { path: from },
      baseHash: preview.target.hash,
    })
    expect(result).toMatchObject({ status: 'saved', imported: [server], requiredSecrets: [] })
    const written = readFileSync(file, 'utf8')
    expect(written).not.toMatch(/sk-live|ghp_/)
    expect(store.server(server)).toMatchObject({
      headers: { Authorization: 'Bearer ${keychain:token}' },
      env: { GITHUB_TOKEN: '${keychain:GITHUB_TOKEN}' },
    })
    expect(await keychain.get(server, 'token')).toBe('sk-live-0123456789abcdefghij')
    expect(await keychain.get(server, 'GITHUB_TOKEN')).toBe(
      'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
    )
  })
})

describe('import problems', () => {
  it('point at lines of the imported file, not of the merged one', async () => {
    const imported = `{
  "mcpServers": {
    "wiki": {
      "type": "htp",
      "url": "http://127.0.0.1:9/wiki"
    }
  }
}
`
    const { from, store } = await setup(imported, 'claude.json')
    const preview = await store.previewImport({ path: from })
    const [problem] = preview.servers[0]!.diagnostics
    expect(problem).toMatchObject({ file: from, line: 4, column: 15, rule: 'invalid_enum' })
    expect(problem!.message).toContain('(line 4, col 15)')
  })
})

describe('import of a file that is not one', () => {
  it('refuses a named pipe at once instead of waiting for a writer', async () => {
    const { from, store } = await setup('{}', 'claude.json')
    const fifo = makeFifo(`${from}.fifo`)
    await expect(store.previewImport({ path: fifo })).rejects.toMatchObject({
      code: 'invalid_argument',
      message: expect.stringMatching(/named pipe \(FIFO\), not a file: pick a Claude Desktop/),
    })
  })

  it('refuses a file over 5 MB unread', async () => {
    const { from, store } = await setup('{}', 'claude.json')
    truncateSync(from, 6 * 1024 * 1024)
    await expect(store.previewImport({ path: from })).rejects.toMatchObject({
      code: 'invalid_argument',
      message: expect.stringMatching(/at most 5 MB/),
    })
  })

  it('says a missing file is not found', async () => {
    const { from, store } = await setup('{}', 'claude.json')
    await expect(store.previewImport({ path: `${from}.gone` })).rejects.toMatchObject({
      code: 'not_found',
    })
  })
})

describe('import apply', () => {
  it('merges what changes into the file, keeping its comments, and reports secrets to set', async () => {
    const { file, from, store } = await setup(CLAUDE, 'claude.json')
    const preview = await store.previewImport({ path: from })
    const result = await store.applyImport({
      source: { path: from },
      baseHash: preview.target.hash,
      keepPlaintext: true,
    })
    expect(result).toMatchObject({ status: 'saved', imported: ['docs', 'github'] })
    const text = readFileSync(file, 'utf8')
    expect(text).toContain('// ours')
    expect(store.server('docs')).toMatchObject({
      url: 'https://docs.example/v2/mcp',
      groups: ['users'],
    })
    expect(store.server('github')).toMatchObject({ enabled: false, command: 'npx' })
    expect(store.history().at(-1)).toMatchObject({
      trigger: 'import',
      diff: { added: ['github'], changed: ['docs'], unchanged: ['kb'] },
    })
  })

  it('imports only the selected servers', async () => {
    const { from, store } = await setup(CLAUDE, 'claude.json')
    const preview = await store.previewImport({ path: from })
    const result = await store.applyImport({
      source: { path: from },
      servers: ['github'],
      baseHash: preview.target.hash,
      keepPlaintext: true,
    })
    expect(result.imported).toEqual(['github'])
    expect(store.server('docs')!.url).toBe('https://docs.example/mcp')
  })

  it('is a conflict when the file changed since the preview', async () => {
    const { file, from, store } = await setup(CLAUDE, 'claude.json')
    const preview = await store.previewImport({ path: from })
    writeFileSync(file, TARGET.replace('// ours', '// edited elsewhere'))
    const result = await store.applyImport({
      source: { path: from },
      baseHash: preview.target.hash,
    })
    expect(result.status).toBe('conflict')
    expect(readFileSync(file, 'utf8')).toContain('// edited elsewhere')
  })

  it('fails clearly for a file that cannot be read', async () => {
    const { store } = await setup('{}', 'x.json')
    await expect(store.previewImport({ path: '/nonexistent/claude.json' })).rejects.toMatchObject({
      code: 'not_found',
    })
  })
})

describe('import candidates', () => {
  it('knows where Claude Desktop, Cursor and VS Code keep their servers', () => {
    const linux = importCandidatePaths({ HOME: '/home/ann' }, 'linux')
    expect(linux.map((c) => c.path)).toEqual([
      '/home/ann/.config/Claude/claude_desktop_config.json',
      '/home/ann/.cursor/mcp.json',
      '/home/ann/.config/Code/User/mcp.json',
    ])
    const mac = importCandidatePaths({ HOME: '/Users/ann' }, 'darwin')
    expect(mac[0]!.path).toBe(
      '/Users/ann/Library/Application Support/Claude/claude_desktop_config.json',
    )
  })
})
