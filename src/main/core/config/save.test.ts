import {
  closeSync,
  existsSync,
  ftruncateSync,
  lstatSync,
  openSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { parse } from 'jsonc-parser'
import { afterEach, describe, expect, it } from 'vitest'
import type { RegistryUpdatedEvent } from '#shared/ipc/registry'
import { EventBus } from '../events'
import { backupPath } from '../util/atomic-write'
import { loadEmbeddedRegistry } from './embedded'
import { contentHash } from './hash'
import { layeredPaths } from './lookup'
import { RegistryStore, type SecretStatus } from './store'
import { tempDir, writeFile } from '#test/support/files/temp-files'
import { waitFor } from '#test/support/process/wait-for'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

const ORIGINAL = `{
  // production servers
  "docs": { "url": "http://127.0.0.1:9/docs", "enabled": true },
  "kb": {
\t"command": "kb", // local
\t"args": ["--stdio"]
  }
}
`

async function startStore(
  options: { mode?: 'file' | 'layered' | 'embedded'; text?: string | Buffer; watch?: boolean } = {},
) {
  const { dir, cleanup } = tempDir('rc-save-')
  cleanups.push(cleanup)
  const mode = options.mode ?? 'file'
  const file = mode === 'layered' ? layeredPaths(dir).defaults : join(dir, 'rag-mcp.json')
  if (mode !== 'embedded') writeFile(file, options.text ?? ORIGINAL)
  const events = new EventBus()
  const updated: RegistryUpdatedEvent[] = []
  events.on('registry:updated', (event) => updated.push(event))
  const store = new RegistryStore({
    lookup: { dataDir: dir, env: {}, ...(mode === 'file' ? { configPath: file } : {}) },
    events,
    watch: options.watch ?? true,
    untrustedWaitMs: 100,
    embedded: () => ({
      file: join(dir, 'default-registry.json'),
      text: '{ "demo": { "command": "node", "args": ["demo.js"] } }',
      diagnostics: [],
    }),
  })
  cleanups.push(() => store.dispose())
  await store.start()
  return { dir, file, store, updated }
}

describe('safe save', () => {
  it('writes the new text, keeps the previous one as .bak and applies it once', async () => {
    const h = await startStore()
    const raw = await h.store.readRaw()
    const text = raw.text.replace('"enabled": true', '"enabled": false')
    const result = await h.store.save({ text, baseHash: raw.hash })
    expect(result).toMatchObject({ status: 'saved', path: h.file, backup: backupPath(h.file) })
    expect(readFileSync(h.file, 'utf8')).toBe(text)
    expect(readFileSync(backupPath(h.file), 'utf8')).toBe(ORIGINAL)
    expect(h.store.server('docs')!.enabled).toBe(false)
    // The watcher sees our own write; it must not reload a second time.
    await waitFor(() => (h.store.counters().unchangedOnDisk > 0 ? true : undefined), 'the echo')
    await h.store.whenIdle()
    expect(h.store.history().map((e) => e.trigger)).toEqual(['startup', 'save'])
    expect(h.updated).toHaveLength(1)
    expect(h.updated[0]).toMatchObject({ trigger: 'save', changed: ['docs'] })
  })

  it('refuses to overwrite a file that changed on disk, and overwrites it when forced', async () => {
    const h = await startStore({ watch: false })
    const raw = await h.store.readRaw()
    const external = ORIGINAL.replace('"--stdio"', '"--verbose"')
    writeFileSync(h.file, external)
    const proposed = raw.text.replace('"enabled": true', '"enabled": false')
    const conflict = await h.store.save({ text: proposed, baseHash: raw.hash })
    expect(conflict).toEqual({
      status: 'conflict',
      path: h.file,
      diskExists: true,
      diskText: external,
      diskHash: contentHash(external),
      proposedText: proposed,
    })
    expect(readFileSync(h.file, 'utf8')).toBe(external)
    const forced = await h.store.save({ text: proposed, baseHash: raw.hash, force: true })
    expect(forced.status).toBe('saved')
    expect(readFileSync(h.file, 'utf8')).toBe(proposed)
    expect(readFileSync(backupPath(h.file), 'utf8')).toBe(external)
  })

  it('keeps a write through a handle opened before the save in .bak', async () => {
    const h = await startStore({ watch: false })
    const raw = await h.store.readRaw()
    // Another program has the file open, and writes only after our save replaced it.
    const handle = openSync(h.file, 'r+')
    const text = raw.text.replace('"enabled": true', '"enabled": false')
    expect((await h.store.save({ text, baseHash: raw.hash })).status).toBe('saved')
    writeSync(handle, '{ "late": { "url": "http://127.0.0.1:9/late" } }\n', 0)
    closeSync(handle)
    expect(readFileSync(h.file, 'utf8')).toBe(text)
    expect(readFileSync(backupPath(h.file), 'utf8')).toContain('"late"')
  })

  it('refuses invalid text with its diagnostics and writes nothing', async () => {
    const h = await startStore({ watch: false })
    const raw = await h.store.readRaw()
    const result = await h.store.save({
      text: '{ "docs": { "url": "http://x/mcp", "transport": "https" } }',
      baseHash: raw.hash,
    })
    expect(result).toMatchObject({
      status: 'invalid',
      diagnostics: [expect.objectContaining({ path: 'docs.transport', rule: 'invalid_enum' })],
    })
    expect(readFileSync(h.file, 'utf8')).toBe(ORIGINAL)
    expect(existsSync(backupPath(h.file))).toBe(false)
  })

  it('saves the embedded default to the overrides file, creating its folders', async () => {
    const h = await startStore({ mode: 'embedded', watch: false })
    const raw = await h.store.readRaw()
    const { overrides } = layeredPaths(h.dir)
    expect(raw).toMatchObject({
      path: overrides,
      exists: false,
      fromEmbedded: true,
      hash: contentHash(''),
    })
    const result = await h.store.save({ text: raw.text, baseHash: raw.hash })
    expect(result).toMatchObject({ status: 'saved', path: overrides })
    expect(result).not.toHaveProperty('backup')
    expect(readFileSync(overrides, 'utf8')).toBe(raw.text)
    expect(h.store.current().source).toMatchObject({ kind: 'layered', files: [overrides] })
  })

  it('validates a draft and tells what saving it would change', async () => {
    const h = await startStore({ watch: false })
    const draft = await h.store.validateDraft(
      '{ "docs": { "url": "http://127.0.0.1:9/docs" }, "new": { "url": "http://127.0.0.1:9/n", "x": 1 } }',
    )
    expect(draft).toMatchObject({
      valid: true,
      diff: { added: ['new'], removed: ['kb'], changed: [], unchanged: ['docs'] },
      diagnostics: [expect.objectContaining({ rule: 'unknown_field', path: 'new.x' })],
    })
    expect(readFileSync(h.file, 'utf8')).toBe(ORIGINAL)
  })
})

describe('the save preview and the keychain', () => {
  it('names the new ${keychain:…} references that have no value yet, for added and changed servers only', async () => {
    const h = await startStore({ watch: false })
    const stored = new Set(['docs/apiKey'])
    const secrets: SecretStatus = {
      statusOf: async (config) => ({
        refs: [...JSON.stringify(config.headers ?? {}).matchAll(/\$\{keychain:(\w+)\}/g)].map(
          ([, name]) => ({
            kind: 'keychain' as const,
            name: name!,
            present: stored.has(`${config.id}/${name}`),
            where: ['headers'],
          }),
        ),
      }),
    }
    const key = (name: string) => ({ Authorization: `Bearer \${keychain:${name}}` })
    const draft = await h.store.validateDraft(
      JSON.stringify({
        docs: { url: 'http://127.0.0.1:9/docs', headers: key('apiKey') },
        kb: { command: 'kb', args: ['--stdio'] },
        wiki: { url: 'http://127.0.0.1:9/wiki', headers: key('wikiToken') },
      }),
      secrets,
    )
    expect(draft.missingSecrets).toEqual([{ server: 'wiki', name: 'wikiToken' }])
    const unchanged = await h.store.validateDraft(ORIGINAL, secrets)
    expect(unchanged.missingSecrets).toBeUndefined()
  })
})

describe('saving through a symlinked rag-mcp.json', () => {
  it('writes the link target, keeps the link, and keeps watching the target', async () => {
    const { dir, cleanup } = tempDir('rc-link-')
    cleanups.push(cleanup)
    const target = writeFile(join(dir, 'dotfiles', 'rag-mcp.json'), ORIGINAL)
    const link = join(dir, 'rag-mcp.json')
    symlinkSync(join('dotfiles', 'rag-mcp.json'), link)
    const store = new RegistryStore({ lookup: { dataDir: dir, env: {}, configPath: link } })
    cleanups.push(() => store.dispose())
    await store.start()
    const raw = await store.readRaw()
    const text = raw.text.replace('"enabled": true', '"enabled": false')
    const result = await store.save({ text, baseHash: raw.hash })
    expect(result).toMatchObject({ status: 'saved', backup: backupPath(target) })
    expect(lstatSync(link).isSymbolicLink()).toBe(true)
    expect(readFileSync(target, 'utf8')).toBe(text)
    expect(readFileSync(backupPath(target), 'utf8')).toBe(ORIGINAL)
    await store.whenIdle()
    // An edit of the target made elsewhere after the save still reaches the running registry.
    writeFileSync(target, text.replace('"--stdio"', '"--verbose"'))
    await waitFor(
      () => (store.server('kb')?.args?.includes('--verbose') ? true : undefined),
      'the reload of the edited target',
    )
  })
})

describe('the embedded demo registry', () => {
  async function startOnTemplate() {
    const { dir, cleanup } = tempDir('rc-save-')
    cleanups.push(cleanup)
    const file = writeFile(
      join(dir, 'default-registry.json'),
      `{
  // the demo
  "demo": {
    "command": "\${app:node}",
    "args": ["\${app:demo}", "kb", "--stdio"],
    "cwd": "\${app:root}",
    "enabled": true
  }
}
`,
    )
    const node = join(dir, 'bin', 'node')
    const store = new RegistryStore({
      lookup: { dataDir: dir, env: {} },
      watch: false,
      embedded: () => loadEmbeddedRegistry({ file, node, demo: '/opt/rag/demo.js', root: dir }),
    })
    cleanups.push(() => store.dispose())
    await store.start()
    return { dir, store, node }
  }

  it('is edited and saved with its ${app:…} placeholders, never this machine’s paths', async () => {
    const h = await startOnTemplate()
    const raw = await h.store.readRaw()
    expect(raw.text).toContain('"${app:node}"')
    const draft = await h.store.enabledDraft('demo', false)
    expect(draft.raw).toMatchObject({ fromEmbedded: true, exists: false })
    expect(draft.text).toBe(raw.text.replace('"enabled": true', '"enabled": false'))

    const result = await h.store.setEnabled('demo', false)
    const { overrides } = layeredPaths(h.dir)
    expect(result).toMatchObject({ status: 'saved', path: overrides })
    const written = readFileSync(overrides, 'utf8')
    expect(written).toBe(draft.text)
    expect(written).not.toContain(h.node)
    expect(written).not.toContain('/opt/rag')
    // The placeholders still stand for this machine's programs once read from the file.
    expect(h.store.server('demo')).toMatchObject({
      enabled: false,
      command: h.node,
      args: ['/opt/rag/demo.js', 'kb', '--stdio'],
      cwd: h.dir,
      origin: overrides,
    })
    expect(h.store.current().warnings).toEqual([])
  })
})

describe('setEnabled', () => {
  it('edits only that field, keeping comments and formatting', async () => {
    const h = await startStore({ watch: false })
    await h.store.setEnabled('docs', false)
    await h.store.setEnabled('kb', false)
    expect(readFileSync(h.file, 'utf8')).toBe(
      ORIGINAL.replace('"enabled": true', '"enabled": false').replace(
        '\t"args": ["--stdio"]\n',
        '\t"args": ["--stdio"],\n\t"enabled": false\n',
      ),
    )
    expect(h.store.current().servers.map((s) => [s.id, s.enabled])).toEqual([
      ['docs', false],
      ['kb', false],
    ])
  })

  it('writes a one-field override for a server defined in the defaults file', async () => {
    const h = await startStore({ mode: 'layered', watch: false })
    const result = await h.store.setEnabled('docs', false)
    const { overrides } = layeredPaths(h.dir)
    expect(result.status).toBe('saved')
    expect(JSON.parse(readFileSync(overrides, 'utf8'))).toEqual({ docs: { enabled: false } })
    expect(readFileSync(h.file, 'utf8')).toBe(ORIGINAL)
    expect(h.store.server('docs')).toMatchObject({ enabled: false, origin: overrides })
  })

  it('fails with not_found for a server the registry does not have', async () => {
    const h = await startStore({ watch: false })
    await expect(h.store.setEnabled('nope', false)).rejects.toMatchObject({ code: 'not_found' })
  })
})

describe('setField', () => {
  const mapping = {
    search: { tool: 'search_docs', arguments: { query: '{query}' }, hits: 'results' },
  }

  it('writes a search mapping into one server, keeping comments, and applies it', async () => {
    const h = await startStore({ watch: false })
    const result = await h.store.setField('kb', 'dialect', mapping)
    expect(result.status).toBe('saved')
    const text = readFileSync(h.file, 'utf8')
    expect(text).toContain('// production servers')
    expect(text).toContain('\t"command": "kb", // local')
    expect((parse(text) as { kb: { dialect: unknown } }).kb.dialect).toEqual(mapping)
    expect(h.store.server('kb')!.dialect).toEqual(mapping)
  })

  it('drafts the edit with the hash of the text it was made from, writing nothing', async () => {
    const h = await startStore({ mode: 'layered', watch: false })
    const { raw, text } = await h.store.draftField('docs', 'dialect', mapping)
    const { overrides } = layeredPaths(h.dir)
    expect(raw).toMatchObject({ path: overrides, exists: false, hash: contentHash('') })
    expect(JSON.parse(text)).toEqual({ docs: { dialect: mapping } })
    expect(existsSync(overrides)).toBe(false)
  })

  it('fails with not_found for a server the registry does not have', async () => {
    const h = await startStore({ watch: false })
    await expect(h.store.draftField('nope', 'dialect', mapping)).rejects.toMatchObject({
      code: 'not_found',
    })
  })
})

describe('edits from a file caught mid-rewrite', () => {
  it('refuses to toggle a server in a file emptied where a valid one was, writing nothing', async () => {
    const h = await startStore({ watch: false })
    writeFileSync(h.file, '')
    const result = await h.store.setEnabled('docs', false)
    expect(result).toMatchObject({
      status: 'conflict',
      diskText: '',
      untrusted: expect.stringMatching(/is empty, where it held a valid registry/),
    })
    expect(readFileSync(h.file, 'utf8')).toBe('')
    expect(existsSync(backupPath(h.file))).toBe(false)
    expect(h.store.current().servers.map((s) => s.id)).toEqual(['docs', 'kb'])
  })

  it('refuses to import into a half-written file, naming the line', async () => {
    const h = await startStore({ watch: false })
    const half = ORIGINAL.slice(0, 60)
    writeFileSync(h.file, half)
    const result = await h.store.applyImport({
      source: { text: '{ "mcpServers": { "new": { "command": "x" } } }', name: 'x.json' },
      baseHash: contentHash(half),
    })
    expect(result).toMatchObject({
      status: 'conflict',
      imported: [],
      untrusted: expect.stringMatching(/is not a registry at line \d+/),
    })
    expect(readFileSync(h.file, 'utf8')).toBe(half)
  })

  it('edits the file once the other program has written it', async () => {
    const h = await startStore({ watch: false })
    const fd = openSync(h.file, 'r+')
    cleanups.push(() => closeSync(fd))
    ftruncateSync(fd, 0)
    const toggled = h.store.setEnabled('docs', false)
    const rewritten = ORIGINAL.replace('production', 'rewritten')
    // The edit is waiting for the file: this write is the event it waits for.
    writeSync(fd, rewritten, 0)
    expect(await toggled).toMatchObject({ status: 'saved' })
    expect(readFileSync(h.file, 'utf8')).toBe(
      rewritten.replace('"enabled": true', '"enabled": false'),
    )
  })

  it('lets the editor save over a file the person is fixing', async () => {
    const h = await startStore({ watch: false })
    writeFileSync(h.file, '{ "docs": ')
    const raw = await h.store.readRaw()
    const result = await h.store.save({ text: ORIGINAL, baseHash: raw.hash })
    expect(result.status).toBe('saved')
    expect(readFileSync(h.file, 'utf8')).toBe(ORIGINAL)
  })
})

describe('a registry file with bytes that are not UTF-8', () => {
  /** ORIGINAL with a Latin-1 "é" (0xE9, not UTF-8) in a comment on line 2 and 0xFF in kb's args. */
  const latin1 = Buffer.concat([
    Buffer.from('{\n  // caf'),
    Buffer.from([0xe9]),
    Buffer.from(' servers\n  "docs": { "url": "http://127.0.0.1:9/docs", "enabled": true },\n'),
    Buffer.from('  "kb": { "command": "kb", "args": ["--x'),
    Buffer.from([0xff, 0xc3]),
    Buffer.from('"] }\n}\n'),
  ])

  it('warns at the line of the first such byte', async () => {
    const { file, store } = await startStore({ text: latin1, watch: false })
    expect(store.current().warnings).toContainEqual(
      expect.objectContaining({
        file,
        line: 2,
        column: 9,
        rule: 'invalid_utf8',
        message: expect.stringMatching(/not UTF-8.*0xE9.*3 bytes/),
      }),
    )
  })

  it('keeps them byte for byte when a toggle edits another line', async () => {
    const { file, store } = await startStore({ text: latin1, watch: false })
    expect(await store.setEnabled('docs', false)).toMatchObject({ status: 'saved' })
    const expected = Buffer.from(
      latin1.toString('latin1').replace('"enabled": true', '"enabled": false'),
      'latin1',
    )
    expect(readFileSync(file).equals(expected)).toBe(true)
    expect(store.server('kb')?.args).toEqual([expect.stringMatching(/^--x/)])
  })

  it('keeps them through the editor: read, edit elsewhere, save', async () => {
    const { file, store } = await startStore({ text: latin1, watch: false })
    const raw = await store.readRaw()
    const text = raw.text.replace('"docs"', '"docs2"')
    expect(await store.save({ text, baseHash: raw.hash })).toMatchObject({ status: 'saved' })
    const expected = Buffer.from(latin1.toString('latin1').replace('"docs"', '"docs2"'), 'latin1')
    expect(readFileSync(file).equals(expected)).toBe(true)
  })
})
