import {
  closeSync,
  mkdirSync,
  openSync,
  renameSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { ConfigInvalidEvent, RegistryUpdatedEvent } from '#shared/ipc/registry'
import { EventBus } from '../events'
import { layeredPaths } from './lookup'
import { HISTORY_LIMIT, RegistryStore } from './store'
import { AWAIT_WRITE_FINISH } from './file-watch'
import { deeplyNested, makeFifo, tempDir, writeFile } from '#test/support/files/temp-files'
import { waitFor } from '#test/support/process/wait-for'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** Three http servers; `timeouts` sets each one's timeoutMs so an edit touches one server. */
function registryText(timeouts: Record<string, number> = {}): string {
  const entry = (id: string) => ({
    url: `http://127.0.0.1:9/${id}`,
    timeoutMs: timeouts[id] ?? 1000,
  })
  return `${JSON.stringify({ a: entry('a'), b: entry('b'), c: entry('c') }, null, 2)}\n`
}

interface Harness {
  dir: string
  file: string
  /** The file itself (what `file` links to, when linked). */
  target: string
  store: RegistryStore
  updated: RegistryUpdatedEvent[]
  invalid: ConfigInvalidEvent[]
}

/**
 * A store on a registry file in a fresh folder: `rag-mcp.json` given as --config, the layered
 * defaults file, or (`linked`) a --config symlink to `dotfiles/rag-mcp.json` (`target`).
 */
async function startStore(
  options: { text?: string; layered?: boolean; watch?: boolean; linked?: boolean } = {},
): Promise<Harness> {
  const { dir, cleanup } = tempDir('rc-store-')
  cleanups.push(cleanup)
  const file = options.layered ? layeredPaths(dir).defaults : join(dir, 'rag-mcp.json')
  const target = options.linked ? join(dir, 'dotfiles', 'rag-mcp.json') : file
  writeFile(target, options.text ?? registryText())
  if (options.linked) symlinkSync(target, file)
  const events = new EventBus()
  const updated: RegistryUpdatedEvent[] = []
  const invalid: ConfigInvalidEvent[] = []
  events.on('registry:updated', (event) => updated.push(event))
  events.on('config:invalid', (event) => invalid.push(event))
  const store = new RegistryStore({
    lookup: { dataDir: dir, env: {}, ...(options.layered ? {} : { configPath: file }) },
    events,
    watch: options.watch ?? true,
    embedded: () => ({ file: 'embedded', text: '{}', diagnostics: [] }),
  })
  cleanups.push(() => store.dispose())
  await store.start()
  return { dir, file, target, store, updated, invalid }
}

const timeoutOf = (store: RegistryStore, id: string) => store.server(id)?.timeoutMs

describe('RegistryStore: live reload', () => {
  it('loads the registry at start', async () => {
    const { store } = await startStore()
    expect(store.current().servers.map((s) => s.id)).toEqual(['a', 'b', 'c'])
    expect(store.history()).toEqual([
      expect.objectContaining({ trigger: 'startup', outcome: 'applied' }),
    ])
  })

  it('applies an in-place write and reports only the edited server as changed', async () => {
    const h = await startStore()
    writeFileSync(h.file, registryText({ b: 2000 }))
    const event = await waitFor(() => h.updated[0], 'registry:updated')
    expect(event).toMatchObject({ added: [], removed: [], changed: ['b'], unchanged: ['a', 'c'] })
    expect(event.trigger).toBe('watch')
    expect(timeoutOf(h.store, 'b')).toBe(2000)
  })

  it('follows atomic rename-over saves, one after another', async () => {
    const h = await startStore()
    for (const [index, timeout] of [2000, 3000].entries()) {
      const temp = `${h.file}.tmp`
      writeFileSync(temp, registryText({ a: timeout }))
      renameSync(temp, h.file)
      await waitFor(() => h.updated[index], `update ${index + 1}`)
      expect(timeoutOf(h.store, 'a')).toBe(timeout)
    }
    expect(h.updated.map((e) => e.changed)).toEqual([['a'], ['a']])
  })

  it('keeps the last good registry while the file is deleted, and applies it when recreated', async () => {
    const h = await startStore()
    unlinkSync(h.file)
    const invalid = await waitFor(() => h.invalid[0], 'config:invalid')
    expect(invalid.diagnostics[0]).toMatchObject({ rule: 'file_not_found' })
    expect(h.store.current().servers).toHaveLength(3)
    writeFileSync(h.file, registryText({ c: 5000 }))
    const event = await waitFor(() => h.updated[0], 'registry:updated')
    expect(event.changed).toEqual(['c'])
    expect(h.store.view().invalid).toBeUndefined()
  })

  it('applies the last write of a burst and never reads a half-written file', async () => {
    const h = await startStore()
    // When each step of the writer happened: the watcher waits for the file to stay still for
    // AWAIT_WRITE_FINISH.stabilityThreshold, so only a pause that long lets it read mid-burst.
    const steps: number[] = []
    const step = (): number => steps.push(performance.now())
    for (let i = 1; i <= 10; i++) {
      const text = registryText({ a: 1000 + i })
      const fd = openSync(h.file, 'w')
      step()
      writeSync(fd, text.slice(0, 20))
      step()
      await new Promise((resolve) => setTimeout(resolve, 3))
      writeSync(fd, text.slice(20))
      step()
      closeSync(fd)
    }
    await waitFor(() => (timeoutOf(h.store, 'a') === 1010 ? true : undefined), 'the last write')
    await h.store.whenIdle()
    expect(h.updated.every((e) => e.changed.length === 1 && e.changed[0] === 'a')).toBe(true)
    const longest = Math.max(...steps.slice(1).map((at, index) => at - steps[index]!))
    // A machine busy enough to hold the writer still that long: what the watcher read then was
    // the file as it stood, and the last write still won (above).
    if (longest >= AWAIT_WRITE_FINISH.stabilityThreshold) return
    expect(h.invalid).toEqual([])
    expect(h.updated.length).toBeLessThan(10)
  })

  it('keeps the last good registry on an invalid edit and reports every diagnostic', async () => {
    const h = await startStore()
    writeFileSync(
      h.file,
      '{\n  "a": { "url": "http://127.0.0.1:9/a", "transport": "https" },\n  "b": 3\n}\n',
    )
    const invalid = await waitFor(() => h.invalid[0], 'config:invalid')
    expect(invalid.diagnostics.map((d) => [d.path, d.line])).toEqual([
      ['a.transport', 2],
      ['b', 3],
    ])
    expect(h.store.current().servers.map((s) => s.id)).toEqual(['a', 'b', 'c'])
    expect(h.store.view().invalid?.diagnostics).toHaveLength(2)
    expect(h.store.history().at(-1)).toMatchObject({ outcome: 'invalid', trigger: 'watch' })
  })

  it('keeps the last good registry when the file becomes nested thousands of levels deep', async () => {
    const h = await startStore()
    writeFileSync(h.file, deeplyNested(3_000))
    const invalid = await waitFor(() => h.invalid[0], 'config:invalid')
    expect(invalid.diagnostics).toEqual([expect.objectContaining({ rule: 'too_deep', line: 1 })])
    expect(h.store.current().servers.map((s) => s.id)).toEqual(['a', 'b', 'c'])
    expect(h.store.history().at(-1)).toMatchObject({ outcome: 'invalid', trigger: 'watch' })
  })

  it('keeps the last good registry when the file is replaced by a directory', async () => {
    const h = await startStore()
    unlinkSync(h.file)
    mkdirSync(h.file)
    await waitFor(
      () => h.store.invalidState()?.diagnostics[0]?.rule === 'not_a_file' || undefined,
      'not_a_file',
    )
    expect(h.store.current().servers.map((s) => s.id)).toEqual(['a', 'b', 'c'])
  })

  it('keeps the last good registry when a named pipe is renamed over the file', async () => {
    const h = await startStore()
    renameSync(makeFifo(`${h.file}.fifo`), h.file)
    const invalid = await waitFor(() => h.invalid[0], 'config:invalid')
    expect(invalid.diagnostics).toEqual([expect.objectContaining({ rule: 'not_a_file' })])
    expect(h.store.current().servers.map((s) => s.id)).toEqual(['a', 'b', 'c'])
  })

  it('emits nothing for an edit that leaves every effective config as it was', async () => {
    const h = await startStore()
    writeFileSync(
      h.file,
      `// a comment and other spacing\n${JSON.stringify(JSON.parse(registryText()))}`,
    )
    await waitFor(() => (h.store.history().length === 2 ? true : undefined), 'the reload')
    expect(h.store.history()[1]!.diff).toMatchObject({ changed: [], unchanged: ['a', 'b', 'c'] })
    expect(h.updated).toEqual([])
  })

  it('announces recovery from an invalid file even when the content is back to the last good one', async () => {
    const h = await startStore()
    writeFileSync(h.file, '{ "a": ')
    await waitFor(() => h.invalid[0], 'config:invalid')
    writeFileSync(h.file, registryText())
    const event = await waitFor(() => h.updated[0], 'registry:updated')
    expect(event).toMatchObject({ changed: [], unchanged: ['a', 'b', 'c'] })
  })

  it('switches to the overrides file when it is created next to the defaults', async () => {
    const h = await startStore({ layered: true })
    const { overrides } = layeredPaths(h.dir)
    writeFile(overrides, '{ "b": { "enabled": false } }')
    const event = await waitFor(() => h.updated[0], 'registry:updated')
    expect(event.changed).toEqual(['b'])
    expect(event.source).toMatchObject({ kind: 'layered', files: [h.file, overrides] })
    expect(h.store.server('b')).toMatchObject({ enabled: false, origin: overrides })
  })

  it('notifies subscribers with the new registry and the diff', async () => {
    const h = await startStore()
    const seen: string[][] = []
    const unsubscribe = h.store.onUpdated((registry, diff) => {
      seen.push([registry.servers.map((s) => s.id).join(','), ...diff.added])
    })
    writeFileSync(h.file, JSON.stringify({ ...JSON.parse(registryText()), d: { command: 'kb' } }))
    await waitFor(() => seen[0], 'the listener')
    expect(seen).toEqual([['a,b,c,d', 'd']])
    unsubscribe()
  })
})

describe('RegistryStore: manual reload and history', () => {
  it('reloads on demand without watching and records it', async () => {
    const h = await startStore({ watch: false })
    writeFileSync(h.file, registryText({ c: 7000 }))
    const result = await h.store.reloadNow()
    expect(result.emitted).toBe(true)
    expect(result.event).toMatchObject({ trigger: 'manual', diff: { changed: ['c'] } })
    expect(h.updated).toHaveLength(1)
  })

  it('records which field of a changed server changed, with its old and new value', async () => {
    const h = await startStore({ watch: false })
    writeFileSync(h.file, registryText({ c: 7000 }))
    await h.store.reloadNow()
    const fields = { c: [{ path: 'timeoutMs', before: '1000', after: '7000' }] }
    expect(h.store.history().at(-1)!.diff!.fields).toEqual(fields)
    expect(h.updated[0]!.fields).toEqual(fields)
    const draft = await h.store.validateDraft(registryText({ c: 7000, a: 50 }))
    expect(draft.diff!.fields).toEqual({ a: [{ path: 'timeoutMs', before: '1000', after: '50' }] })
  })

  it(`keeps the last ${HISTORY_LIMIT} reload events`, async () => {
    const h = await startStore({ watch: false })
    for (let i = 0; i < HISTORY_LIMIT + 5; i++) await h.store.reloadNow()
    const history = h.store.history()
    expect(history).toHaveLength(HISTORY_LIMIT)
    expect(history.every((event) => event.trigger === 'manual')).toBe(true)
  })
})

describe('RegistryStore: live reload through a symlinked --config', () => {
  it('recovers when the target is deleted and then written again', async () => {
    const h = await startStore({ linked: true })
    unlinkSync(h.target)
    await waitFor(() => h.invalid[0], 'config:invalid for the missing target')
    writeFileSync(h.target, registryText({ b: 2000 }))
    await waitFor(() => (timeoutOf(h.store, 'b') === 2000 ? true : undefined), 'the restored file')
    expect(h.store.invalidState()).toBeUndefined()
    writeFileSync(h.target, registryText({ b: 3000 }))
    await waitFor(() => (timeoutOf(h.store, 'b') === 3000 ? true : undefined), 'a later edit')
  })

  it('recovers when the link points at /dev/zero for a moment', async () => {
    const h = await startStore({ linked: true })
    const swap = (to: string): void => {
      const next = `${h.file}.next`
      symlinkSync(to, next)
      renameSync(next, h.file)
    }
    swap('/dev/zero')
    await waitFor(() => h.invalid[0], 'config:invalid for /dev/zero')
    writeFileSync(h.target, registryText({ c: 2000 }))
    swap(h.target)
    await waitFor(() => (timeoutOf(h.store, 'c') === 2000 ? true : undefined), 'the restored link')
    writeFileSync(h.target, registryText({ c: 3000 }))
    await waitFor(() => (timeoutOf(h.store, 'c') === 3000 ? true : undefined), 'a later edit')
  })

  it('recovers when the target is briefly a link to /dev/zero, then a file again', async () => {
    const h = await startStore({ linked: true })
    unlinkSync(h.target)
    symlinkSync('/dev/zero', h.target)
    await waitFor(() => h.invalid[0], 'config:invalid for /dev/zero')
    unlinkSync(h.target)
    writeFileSync(h.target, registryText({ a: 2000 }))
    await waitFor(() => (timeoutOf(h.store, 'a') === 2000 ? true : undefined), 'the restored file')
    writeFileSync(h.target, registryText({ a: 3000 }))
    await waitFor(() => (timeoutOf(h.store, 'a') === 3000 ? true : undefined), 'a later edit')
  })
})
