import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { MASK } from '#shared/config/plaintext-secrets'
import type { RawConfig, RegistryView, SaveResult } from '#shared/ipc/registry'
import { createHandlers } from '../api/handlers'
import { dispatch } from '../api/dispatch'
import { createCore, type Core } from '../core'
import { tempDir, writeFile } from '#test/support/files/temp-files'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function core(text: string): Promise<{ core: Core; file: string }> {
  const { dir, cleanup } = tempDir('rc-ipc-')
  cleanups.push(cleanup)
  const file = writeFile(join(dir, 'rag-mcp.json'), text)
  const instance = await createCore({ dataDir: dir, configPath: file, env: {}, watch: false })
  cleanups.push(() => instance.dispose())
  return { core: instance, file }
}

async function call<T>(target: Core, channel: string, request?: unknown): Promise<T> {
  const response = await dispatch(createHandlers(target), channel, request)
  if (!response.ok) throw new Error(`${channel}: ${response.error.code}: ${response.error.message}`)
  return response.value as T
}

describe('registry IPC channels', () => {
  it('reports the running registry and its source, masking plaintext secrets', async () => {
    const { core: c, file } = await core(
      '{ "docs": { "url": "https://x.example/mcp", "headers": { "Authorization": "Bearer abc" } } }',
    )
    expect(c.info().registry).toMatchObject({ kind: 'file', files: [file] })
    const view = await call<RegistryView>(c, 'registry:get')
    expect(view.source.files).toEqual([file])
    expect(view.servers[0]!.headers).toEqual({ Authorization: MASK })
    expect(view.warnings.map((w) => w.rule)).toEqual(['plaintext_secret'])
    expect(JSON.stringify(view)).not.toContain('Bearer abc')
  })

  it('reads, validates and saves the file, emitting registry:updated', async () => {
    const { core: c, file } = await core('{ "docs": { "url": "https://x.example/mcp" } }')
    const updates: string[][] = []
    c.events.on('registry:updated', (event) => updates.push(event.added))
    const raw = await call<RawConfig>(c, 'config:read')
    const text = '{ "docs": { "url": "https://x.example/mcp" }, "kb": { "command": "kb" } }'
    const draft = await call<{ valid: boolean; diff: { added: string[] } }>(c, 'config:validate', {
      text,
    })
    expect(draft).toMatchObject({ valid: true, diff: { added: ['kb'] } })
    const saved = await call<SaveResult>(c, 'config:save', { text, baseHash: raw.hash })
    expect(saved.status).toBe('saved')
    expect(readFileSync(file, 'utf8')).toBe(text)
    expect(updates).toEqual([['kb']])
    const disabled = await call<SaveResult>(c, 'registry:set-enabled', {
      serverId: 'kb',
      enabled: false,
    })
    expect(disabled.status).toBe('saved')
    expect(c.registry.server('kb')!.enabled).toBe(false)
  })

  it('refuses an import request that names neither a path nor a text', async () => {
    const { core: c } = await core('{}')
    const response = await dispatch(createHandlers(c), 'config:import-preview', {})
    expect(response).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
  })
})
