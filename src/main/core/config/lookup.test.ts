import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { layeredPaths, resolveRegistrySource } from './lookup'

function dataDir(files: ('defaults' | 'overrides')[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'rc-lookup-'))
  const paths = layeredPaths(dir)
  for (const which of files) {
    mkdirSync(join(paths[which], '..'), { recursive: true })
    writeFileSync(paths[which], '{}')
  }
  return dir
}

describe('registry lookup', () => {
  it('uses --config before anything else', () => {
    const dir = dataDir(['defaults', 'overrides'])
    const source = resolveRegistrySource({
      dataDir: dir,
      configPath: 'x/rag-mcp.json',
      env: { RAG_MCP_CONFIG: '/y.json' },
    })
    expect(source).toMatchObject({ kind: 'file', files: [resolve('x/rag-mcp.json')] })
  })

  it('uses RAG_MCP_CONFIG when there is no --config', () => {
    const source = resolveRegistrySource({
      dataDir: dataDir(['defaults']),
      env: { RAG_MCP_CONFIG: '/etc/rag.json' },
    })
    expect(source).toMatchObject({
      kind: 'file',
      files: ['/etc/rag.json'],
      writableFile: '/etc/rag.json',
    })
  })

  it('layers overrides over defaults in the data folder', () => {
    const dir = dataDir(['defaults', 'overrides'])
    const { defaults, overrides } = layeredPaths(dir)
    expect(resolveRegistrySource({ dataDir: dir, env: {} })).toMatchObject({
      kind: 'layered',
      files: [defaults, overrides],
      writableFile: overrides,
    })
  })

  it('falls back to the embedded demo registry', () => {
    expect(resolveRegistrySource({ dataDir: dataDir(), env: {} })).toMatchObject({
      kind: 'embedded',
      files: [],
    })
  })
})
