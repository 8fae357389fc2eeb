import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { RegistrySource } from '#shared/model/registry'
import { loadEmbeddedRegistry } from './embedded'
import { loadSource } from './load'
import { layeredPaths, resolveRegistrySource } from './lookup'
import { deeplyNested, makeFifo, tempDir, writeFile } from '#test/support/files/temp-files'

const temps: Array<() => void> = []
afterEach(() => temps.splice(0).forEach((cleanup) => cleanup()))
function dir(): string {
  const { dir, cleanup } = tempDir()
  temps.push(cleanup)
  return dir
}
const noEmbedded = () => {
  throw new Error('the embedded registry must not be read here')
}

describe('layered files', () => {
  it('merges overrides over defaults field by field and records where each server came from', () => {
    const dataDir = dir()
    const { defaults, overrides } = layeredPaths(dataDir)
    writeFile(
      defaults,
      JSON.stringify({
        docsRag: {
          url: 'https://docs.example/mcp',
          headers: { 'X-Tenant': 'acme' },
          groups: ['users'],
        },
        kb: { command: 'kb' },
      }),
    )
    writeFile(
      overrides,
      '{ "docsRag": { "enabled": false }, "extra": { "url": "https://x.example/mcp" } }',
    )
    const source = resolveRegistrySource({ dataDir, env: {} })
    const result = loadSource(source, noEmbedded)
    expect(result.build.ok).toBe(true)
    const byId = Object.fromEntries(result.build.servers.map((s) => [s.id, s]))
    expect(byId.docsRag).toMatchObject({
      url: 'https://docs.example/mcp',
      headers: { 'X-Tenant': 'acme' },
      groups: ['users'],
      enabled: false,
      origin: overrides,
    })
    expect(byId.kb!.origin).toBe(defaults)
    expect(byId.extra!.origin).toBe(overrides)
  })

  it('validates the merged entry and points into the file that holds the bad value', () => {
    const dataDir = dir()
    const { defaults, overrides } = layeredPaths(dataDir)
    writeFile(defaults, '{\n  "docsRag": {\n    "url": "https://docs.example/mcp"\n  }\n}\n')
    writeFile(
      overrides,
      '{\n  "docsRag": {\n    "enabled": false,\n    "transport": "stdio"\n  }\n}\n',
    )
    const result = loadSource(resolveRegistrySource({ dataDir, env: {} }), noEmbedded)
    expect(result.build.ok).toBe(false)
    expect(result.build.diagnostics).toEqual([
      expect.objectContaining({
        file: defaults,
        path: 'docsRag.url',
        line: 3,
        column: 12,
        rule: 'ignored_field',
      }),
      expect.objectContaining({
        file: overrides,
        path: 'docsRag.transport',
        line: 4,
        rule: 'missing_command',
      }),
    ])
  })

  it('replaces a whole field: an override of headers drops the default headers', () => {
    const dataDir = dir()
    const { defaults, overrides } = layeredPaths(dataDir)
    writeFile(
      defaults,
      JSON.stringify({ a: { url: 'https://x/mcp', headers: { A: '1', B: '2' } } }),
    )
    writeFile(overrides, JSON.stringify({ a: { headers: { B: '3' } } }))
    const result = loadSource(resolveRegistrySource({ dataDir, env: {} }), noEmbedded)
    expect(result.build.servers[0]!.headers).toEqual({ B: '3' })
  })

  it('reports an explicit --config file that does not exist', () => {
    const path = join(dir(), 'missing.json')
    const result = loadSource(
      resolveRegistrySource({ dataDir: dir(), configPath: path }),
      noEmbedded,
    )
    expect(result.build.ok).toBe(false)
    expect(result.build.diagnostics[0]).toMatchObject({ rule: 'file_not_found', file: path })
  })
})

describe('embedded default', () => {
  it('substitutes the node and demo placeholders before parsing', () => {
    const file = writeFile(
      join(dir(), 'default-registry.json'),
      JSON.stringify({
        demoKb: { command: '${app:node}', args: ['${app:demo}', 'kb', '--stdio'] },
      }),
    )
    const node = 'C:\\Program Files\\node.exe'
    const embedded = loadEmbeddedRegistry({ file, node, demo: '/opt/rag/out/main/demo.js' })
    const result = loadSource({ kind: 'embedded', files: [], label: 'demo' }, () => embedded)
    expect(result.build.ok).toBe(true)
    expect(result.build.servers[0]).toMatchObject({
      command: node,
      args: ['/opt/rag/out/main/demo.js', 'kb', '--stdio'],
      origin: file,
    })
  })

  const demoSource: RegistrySource = { kind: 'embedded', files: [], label: 'demo' }
  const serverOf = (embedded: ReturnType<typeof loadEmbeddedRegistry>) =>
    loadSource(demoSource, () => embedded).build.servers[0]!

  it('uses this Node and the demo bundle beside the running code by default', () => {
    const file = writeFile(
      join(dir(), 'r.json'),
      '{ "a": { "command": "${app:node}", "args": ["${app:demo}"] } }',
    )
    const embedded = loadEmbeddedRegistry({ file })
    expect(embedded.text).toContain('${app:node}')
    const server = serverOf(embedded)
    expect(server.command).toBe(process.execPath)
    expect(server.args[0]).toMatch(/demo\.js$/)
  })

  it('starts the demo servers in a real folder when the app is packed in an asar archive', () => {
    const home = dir()
    const file = writeFile(
      join(home, 'r.json'),
      '{ "a": { "command": "x", "cwd": "${app:root}" } }',
    )
    const packed = loadEmbeddedRegistry({ file, root: join(home, 'resources', 'app.asar') })
    // A child process cannot start inside an archive: its folder, resources/, is used.
    expect(serverOf(packed).cwd).toBe(join(home, 'resources'))
    expect(serverOf(loadEmbeddedRegistry({ file, root: '/opt/rag' })).cwd).toBe('/opt/rag')
  })

  it('expands the same placeholders in a registry file, without warnings', () => {
    const file = writeFile(
      join(dir(), 'rag-mcp.json'),
      '{ "a": { "command": "${app:node}", "args": ["${app:demo}", "--x"], "cwd": "${app:root}" } }',
    )
    const result = loadSource(resolveRegistrySource({ dataDir: dir(), configPath: file }), () =>
      loadEmbeddedRegistry({ file: join(dir(), 'none.json'), demo: '/opt/demo.js', root: '/opt' }),
    )
    expect(result.build.diagnostics).toEqual([])
    expect(result.build.servers[0]).toMatchObject({
      command: process.execPath,
      args: ['/opt/demo.js', '--x'],
      cwd: '/opt',
    })
  })

  it('is an empty registry with a warning when the bundled file is missing', () => {
    const embedded = loadEmbeddedRegistry({ file: join(dir(), 'nope.json') })
    const result = loadSource({ kind: 'embedded', files: [], label: 'demo' }, () => embedded)
    expect(result.build.ok).toBe(true)
    expect(result.build.servers).toEqual([])
    expect(result.build.diagnostics).toEqual([
      expect.objectContaining({ severity: 'warning', rule: 'embedded_missing' }),
    ])
  })
})

describe('files that are not a registry', () => {
  const loadFile = (path: string) =>
    loadSource(resolveRegistrySource({ dataDir: dir(), configPath: path }), noEmbedded)
  const problem = (path: string) => {
    const result = loadFile(path)
    expect(result.build.ok).toBe(false)
    expect(result.build.diagnostics).toHaveLength(1)
    return result.build.diagnostics[0]!
  }

  it('reports a file nested 3,000 levels deep at the level that is too deep', () => {
    const path = writeFile(join(dir(), 'deep.json'), deeplyNested(3_000))
    expect(problem(path)).toMatchObject({
      severity: 'error',
      rule: 'too_deep',
      line: 1,
      column: 5 * 64 + 1,
      message: expect.stringMatching(/nested more than 64 levels/),
    })
  })

  it('reports deep arrays inside a server entry the same way', () => {
    const text = `{"s": {"url": "http://x", "args": ${'['.repeat(3_000)}${']'.repeat(3_000)}}}`
    const path = writeFile(join(dir(), 'deep-array.json'), text)
    expect(problem(path)).toMatchObject({ rule: 'too_deep', line: 1 })
  })

  it('refuses a directory', () => {
    const path = join(dir(), 'rag-mcp.json')
    mkdirSync(path)
    expect(problem(path)).toMatchObject({
      rule: 'not_a_file',
      file: path,
      message: expect.stringContaining('is a directory, not a file'),
    })
  })

  it('refuses a named pipe without waiting for a writer', () => {
    const path = makeFifo(join(dir(), 'rag-mcp.json'))
    expect(problem(path)).toMatchObject({
      rule: 'not_a_file',
      message: expect.stringContaining('is a named pipe (FIFO), not a file'),
    })
  })

  it('refuses a device such as /dev/zero', () => {
    expect(problem('/dev/zero')).toMatchObject({
      rule: 'not_a_file',
      message: expect.stringContaining('is a device, not a file'),
    })
  })

  it('refuses a symlink loop', () => {
    const folder = dir()
    symlinkSync(join(folder, 'b.json'), join(folder, 'a.json'))
    symlinkSync(join(folder, 'a.json'), join(folder, 'b.json'))
    expect(problem(join(folder, 'a.json'))).toMatchObject({
      rule: 'unreadable',
      message: expect.stringContaining('symbolic link loop'),
    })
  })

  it('refuses a file over 5 MB without reading it', () => {
    const path = join(dir(), 'huge.json')
    writeFileSync(path, `{"a": {"description": "${'x'.repeat(5 * 1024 * 1024)}"}}`)
    expect(problem(path)).toMatchObject({
      rule: 'file_too_large',
      message: expect.stringMatching(/is 5\.0 MB: a registry may be at most 5 MB/),
    })
  })

  it('reads a symlink to a regular file as that file', () => {
    const folder = dir()
    const target = writeFile(join(folder, 'real.json'), '{"a": {"url": "http://x/mcp"}}')
    symlinkSync(target, join(folder, 'link.json'))
    const result = loadFile(join(folder, 'link.json'))
    expect(result.build.ok).toBe(true)
    expect(result.build.servers.map((s) => s.id)).toEqual(['a'])
  })
})
